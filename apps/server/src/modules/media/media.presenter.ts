import type { Picture, PictureSource } from '@share-arts/contract';
import type { MediaVariant } from '../../db/schema.js';
import type { MediaRow } from './media.sql.js';
import { mediaUrl } from './media.storage.js';

/** The width `url` aims for: sharp on most screens at feed size, without the weight of the 2048 one. */
const DEFAULT_WIDTH = 1080;

const MIME: Record<MediaVariant['format'], PictureSource['type'] | undefined> = {
  avif: 'image/avif',
  jpeg: 'image/jpeg',
  webp: undefined,
};

const byWidth = (a: MediaVariant, b: MediaVariant) => a.width - b.width;

/**
 * The one rule for which JPEG file to show where one file is named (a picture's `url`, an avatar, a
 * notification's thumbnail): the narrowest JPEG variant at least `width` pixels wide, else the widest
 * there is (a picture smaller than that). Undefined for a row without JPEG variants.
 */
export function jpegFor(variants: readonly MediaVariant[], width: number): MediaVariant | undefined {
  const jpegs = variants.filter((variant) => variant.format === 'jpeg').sort(byWidth);
  return jpegs.find((variant) => variant.width >= width) ?? jpegs.at(-1);
}

/** A media row as it leaves the server: enough for `<picture>` with srcset/sizes, its aspect ratio and placeholder. */
export function toPicture(row: MediaRow): Picture {
  // Every picture at least DEFAULT_WIDTH wide has a variant of exactly that width (MEDIA_LIMITS.postWidths).
  const fallback = jpegFor(row.variants, DEFAULT_WIDTH);
  const sources: PictureSource[] = [];
  for (const format of ['avif', 'jpeg'] as const) {
    const variants = row.variants.filter((variant) => variant.format === format).sort(byWidth);
    if (variants.length === 0) continue;
    sources.push({
      type: MIME[format]!,
      srcset: variants.map((variant) => `${mediaUrl(variant.file)} ${variant.width}w`).join(', '),
    });
  }
  return {
    _id: row.id,
    url: fallback ? mediaUrl(fallback.file) : mediaUrl(row.originalFile),
    width: row.width,
    height: row.height,
    placeholder: row.placeholder,
    alt: row.alt,
    originalUrl: mediaUrl(row.originalFile),
    sources,
  };
}

/** The avatar file shown in lists and cards: sharp at 96 CSS pixels on a 2x screen. */
export function avatarUrl(picture: MediaRow): string {
  const chosen = jpegFor(picture.variants, 192);
  return chosen ? mediaUrl(chosen.file) : mediaUrl(picture.originalFile);
}
