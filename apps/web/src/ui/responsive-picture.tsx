import type { Picture } from '@share-arts/contract';
import { useState } from 'react';
import { thumbHashDataUrl } from '../lib/thumbhash';
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
 * a byte arrives, and its ThumbHash painted underneath until the picture has loaded.
 */
export function ResponsivePicture({ picture, alt, sizes, priority = false, className }: ResponsivePictureProps) {
  const [loaded, setLoaded] = useState(false);
  const placeholder = loaded ? undefined : thumbHashDataUrl(picture.placeholder);
  return (
    <picture className={[styles.picture, className].filter(Boolean).join(' ')}>
      {picture.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={sizes} />
      ))}
      <img
        className={styles.img}
        src={picture.url}
        alt={alt}
        width={picture.width}
        height={picture.height}
        sizes={sizes}
        loading={priority ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : 'auto'}
        decoding="async"
        onLoad={() => setLoaded(true)}
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
  return (
    <img
      className={[styles.img, className].filter(Boolean).join(' ')}
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
      style={{ aspectRatio: `${width} / ${height}` }}
    />
  );
}
