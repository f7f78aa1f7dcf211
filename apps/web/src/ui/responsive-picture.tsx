import type { Picture } from '@share-arts/contract';
import { startTransition, useEffect, useState } from 'react';
import { thumbHashDataUrl } from '../lib/thumbhash';
import { whenIdle } from '../lib/when-idle';
import { openPictureGate, usePictureGate, usePriorityPicture } from './picture-gate';
import styles from './responsive-picture.module.css';

/**
 * When a picture's file is fetched: `lazy` as it nears the viewport (the browser's lazy loading), `eager` at
 * once (a carousel's next picture, preloaded), `later` not yet (a carousel's pictures further on: only their
 * placeholder is drawn).
 */
export type PictureLoading = 'lazy' | 'eager' | 'later';

interface PictureSourcesProps {
  picture: Pick<Picture, 'sources'>;
  sizes: string;
}

/**
 * The <source> elements of a picture in the server's order: the animated and the P3 variants first, each
 * with its media query (motion allowed, a wide-gamut screen), then the sRGB stills every screen can show.
 * The browser takes the first whose media and type it accepts.
 */
export function PictureSources({ picture, sizes }: PictureSourcesProps) {
  return picture.sources.map((source) => (
    <source
      key={`${source.media ?? ''} ${source.type}`}
      type={source.type}
      media={source.media}
      srcSet={source.srcset}
      sizes={sizes}
    />
  ));
}

interface ResponsivePictureProps {
  picture: Picture;
  alt: string;
  /** The `sizes` attribute: how wide the picture is drawn at each viewport width. */
  sizes: string;
  /** Above the fold: load at once and with high priority instead of lazily. */
  priority?: boolean;
  loading?: PictureLoading;
  className?: string;
}

/**
 * An uploaded picture, drawn whole inside the box its parent gives it (`object-fit: contain`): its sources at
 * every stored width, and its ThumbHash painted where the picture will be until it has loaded. Decoding a
 * ThumbHash takes a moment: the priority picture's is decoded at once, the others' when the browser is idle,
 * so a page of cards renders without decoding a dozen placeholders first. Pixel art is drawn with
 * nearest-neighbour scaling, never blurred.
 */
export function ResponsivePicture({
  picture,
  alt,
  sizes,
  priority = false,
  loading = 'lazy',
  className,
}: ResponsivePictureProps) {
  const [loaded, setLoaded] = useState(false);
  const [decoded, setDecoded] = useState(priority);
  useEffect(() => (decoded ? undefined : whenIdle(() => startTransition(() => setDecoded(true)))), [decoded]);
  usePriorityPicture(priority);
  // The others wait for the priority picture (see picture-gate.ts); meanwhile their box is drawn without a file.
  const gateOpen = usePictureGate();
  const mayLoad = priority || (gateOpen && loading !== 'later');
  const placeholder = loaded || !decoded ? undefined : thumbHashDataUrl(picture.placeholder);
  const settle = () => {
    setLoaded(true);
    if (priority) openPictureGate();
  };
  return (
    <picture className={[styles.picture, className].filter(Boolean).join(' ')}>
      {mayLoad && <PictureSources picture={picture} sizes={sizes} />}
      <img
        className={`${styles.img} ${picture.pixelated ? styles.pixelated : ''}`}
        src={mayLoad ? picture.url : undefined}
        alt={alt}
        width={picture.width}
        height={picture.height}
        sizes={sizes}
        loading={priority || loading === 'eager' ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : 'auto'}
        decoding="async"
        onLoad={settle}
        onError={priority ? openPictureGate : undefined}
        style={{ backgroundImage: placeholder ? `url("${placeholder}")` : undefined }}
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

/** A single-file picture (the default post picture), drawn whole inside the box its parent gives it. */
export function StaticPicture({ src, alt, width, height, priority = false, className }: StaticPictureProps) {
  usePriorityPicture(priority);
  const mayLoad = usePictureGate() || priority;
  return (
    <img
      className={[styles.img, className].filter(Boolean).join(' ')}
      src={mayLoad ? src : undefined}
      alt={alt}
      onLoad={priority ? openPictureGate : undefined}
      onError={priority ? openPictureGate : undefined}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
    />
  );
}
