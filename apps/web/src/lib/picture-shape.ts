import { currentLocale } from './current-locale';
import type { Picture } from '@share-arts/contract';

/**
 * The shapes a post's pictures are drawn at (the clamp, the post page's box, panoramas): in the contract,
 * since the server's preload of the post page's picture follows the same rules (picture-layout.ts).
 */
export { aspectRatio, clampedRatio, isPanorama, pageBoxRatio, RATIO_LIMITS } from '@share-arts/contract';

/** The widest variant the server made (the `w` descriptors of every source), 0 when it lists none. */
export function largestVariantWidth(picture: Pick<Picture, 'sources'>): number {
  let largest = 0;
  for (const source of picture.sources) {
    for (const candidate of source.srcset.split(',')) {
      const match = /\s(\d+)w\s*$/.exec(candidate);
      if (match) largest = Math.max(largest, Number(match[1]));
    }
  }
  return largest;
}

/** "2.1 MB", "840 kB": a file's size as a person reads it, in the app's language (Intl's units). */
export function formatBytes(bytes: number): string {
  const locale = currentLocale();
  const [value, unit, digits] =
    bytes >= 1_000_000
      ? [bytes / 1_000_000, 'megabyte', bytes >= 10_000_000 ? 0 : 1]
      : bytes >= 1_000
        ? [bytes / 1_000, 'kilobyte', 0]
        : [bytes, 'byte', 0];
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    unitDisplay: unit === 'byte' ? 'long' : 'short',
    maximumFractionDigits: digits,
  }).format(value);
}
