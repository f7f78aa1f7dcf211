import type { Picture } from '@share-arts/contract';
import { absolute } from './html.js';

/** Mastodon's MediaAttachment (https://docs.joinmastodon.org/entities/MediaAttachment/). */
export interface MastoMediaAttachment {
  id: string;
  type: 'image' | 'gifv' | 'video' | 'audio' | 'unknown';
  url: string | null;
  preview_url: string | null;
  remote_url: string | null;
  /** Deprecated by Mastodon (3.5) but still sent by it; clients may read it. */
  text_url: string | null;
  meta: {
    original?: { width: number; height: number; size: string; aspect: number };
    small?: { width: number; height: number; size: string; aspect: number };
    focus?: { x: number; y: number };
  } | null;
  description: string | null;
  blurhash: string | null;
}

/** The width of the variant we hand out as `preview_url` (Mastodon's "small" is about 640 px on its long side). */
const PREVIEW_WIDTH = 640;

const sizeOf = (width: number, height: number) => ({
  width,
  height,
  size: `${width}x${height}`,
  aspect: height > 0 ? width / height : 1,
});

/** The JPEG variant of the given width out of a picture's sources, or the smallest one listed. */
function jpegVariant(picture: Picture, width: number): { url: string; width: number } | undefined {
  const jpeg = picture.sources.find((source) => source.type === 'image/jpeg' && !source.media);
  if (!jpeg) return undefined;
  const variants = jpeg.srcset
    .split(',')
    .map((entry) => entry.trim().split(/\s+/))
    .flatMap(([url, w]) => (url && w?.endsWith('w') ? [{ url, width: Number(w.slice(0, -1)) }] : []))
    .sort((a, b) => a.width - b.width);
  return variants.find((variant) => variant.width >= width) ?? variants.at(-1);
}

/**
 * One of our pictures as a MediaAttachment: `url` is the 1080 px JPEG our pages show (the original's `originalUrl`
 * is ours alone), `preview_url` the 640 px one, `meta.original` the picture's own size, `description` its alt text.
 * `blurhash` is computed at upload (4x3 components; null for a picture uploaded before migration 0056), `focus` the
 * focal point given on its upload or update (the centre when none was).
 */
export function toMediaAttachment(picture: Picture, origin: string): MastoMediaAttachment {
  const preview = jpegVariant(picture, PREVIEW_WIDTH);
  const smallWidth = preview ? Math.min(preview.width, picture.width) : picture.width;
  const smallHeight = picture.width > 0 ? Math.round((picture.height * smallWidth) / picture.width) : picture.height;
  const url = absolute(picture.url, origin);
  return {
    id: picture._id,
    type: 'image',
    url,
    preview_url: preview ? absolute(preview.url, origin) : url,
    remote_url: null,
    text_url: null,
    meta: {
      original: sizeOf(picture.width, picture.height),
      small: sizeOf(smallWidth, smallHeight),
      focus: picture.focus ?? { x: 0, y: 0 },
    },
    description: picture.alt === '' ? null : picture.alt,
    blurhash: picture.blurhash ?? null,
  };
}
