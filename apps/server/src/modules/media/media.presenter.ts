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

/** A media row as it leaves the server: enough for `<picture>` with srcset/sizes, its aspect ratio and placeholder. */
export function toPicture(row: MediaRow): Picture {
  const jpegs = row.variants.filter((variant) => variant.format === 'jpeg').sort(byWidth);
  const fallback = jpegs.filter((variant) => variant.width <= DEFAULT_WIDTH).pop() ?? jpegs[0];
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

/** The avatar variant shown in lists and cards: the smallest JPEG at least 192 px wide. */
export function avatarUrl(picture: MediaRow): string {
  const jpegs = picture.variants.filter((v) => v.format === 'jpeg').sort((a, b) => a.width - b.width);
  const chosen = jpegs.find((v) => v.width >= 192) ?? jpegs.at(-1);
  return chosen ? mediaUrl(chosen.file) : mediaUrl(picture.originalFile);
}
