import type { Picture } from '@share-arts/contract';
import { startTransition, useEffect, useState } from 'react';
import { thumbHashDataUrl } from '../lib/thumbhash';
import { whenIdle } from '../lib/when-idle';
import { openPictureGate, usePictureGate, usePriorityPicture } from './picture-gate';
import styles from './responsive-picture.module.css';

interface ResponsivePictureProps {
  picture: Picture;
  alt: string;
  /** The `sizes` attribute: how wide the picture is drawn at each viewport width. */
  sizes: string;
  /** Above the fold: load at once and with high priority instead of lazily. */
  priority?: boolean;
  className?: string;
}

/**
 * An uploaded picture: AVIF and JPEG sources at every stored width, its own aspect ratio reserved before
 * a byte arrives, and its ThumbHash painted underneath until the picture has loaded. Decoding a ThumbHash
 * takes a moment: the priority picture's is decoded at once, the others' when the browser is idle, so a
 * page of cards renders without decoding a dozen placeholders first.
 */
export function ResponsivePicture({ picture, alt, sizes, priority = false, className }: ResponsivePictureProps) {
  const [loaded, setLoaded] = useState(false);
  const [decoded, setDecoded] = useState(priority);
  useEffect(() => (decoded ? undefined : whenIdle(() => startTransition(() => setDecoded(true)))), [decoded]);
  usePriorityPicture(priority);
  // The others wait for the priority picture (see picture-gate.ts); meanwhile their box is drawn without a
  // file (and without its alt text, which would show in it).
  const mayLoad = usePictureGate() || priority;
  const placeholder = loaded || !decoded ? undefined : thumbHashDataUrl(picture.placeholder);
  const settle = () => {
    setLoaded(true);
    if (priority) openPictureGate();
  };
  return (
    <picture className={[styles.picture, className].filter(Boolean).join(' ')}>
      {mayLoad &&
        picture.sources.map((source) => (
          <source key={source.type} type={source.type} srcSet={source.srcset} sizes={sizes} />
        ))}
      <img
        className={styles.img}
        src={mayLoad ? picture.url : undefined}
        alt={mayLoad ? alt : ''}
        width={picture.width}
        height={picture.height}
        sizes={sizes}
        loading={priority ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : 'auto'}
        decoding="async"
        onLoad={settle}
        onError={priority ? openPictureGate : undefined}
        style={{
          aspectRatio: `${picture.width} / ${picture.height}`,
          backgroundImage: placeholder ? `url("${placeholder}")` : undefined,
        }}
      />
    </picture>
  );
}

interface StaticPictureProps {
  src: string;
  alt: string;
  width: number;
  height: number;
  priority?: boolean;
  className?: string;
}

/** A single-file picture (the default post picture) with its aspect ratio reserved. */
export function StaticPicture({ src, alt, width, height, priority = false, className }: StaticPictureProps) {
  usePriorityPicture(priority);
  const mayLoad = usePictureGate() || priority;
  return (
    <img
      className={[styles.img, className].filter(Boolean).join(' ')}
      src={mayLoad ? src : undefined}
      alt={mayLoad ? alt : ''}
      onLoad={priority ? openPictureGate : undefined}
      onError={priority ? openPictureGate : undefined}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
      style={{ aspectRatio: `${width} / ${height}` }}
    />
  );
}
