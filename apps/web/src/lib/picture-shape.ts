import type { Picture } from '@share-arts/contract';

/**
 * The shapes a post's pictures are drawn at. A card gives a picture a box at its own aspect ratio, clamped
 * between 4:5 portrait and 1.91:1 landscape (Instagram's range): inside the range the picture fills its box;
 * beyond it the box stops at the limit and the whole picture sits inside it on a neutral mat, never cropped.
 * A carousel's box takes the first picture's clamped shape, and the others fit inside it.
 */
export const RATIO_LIMITS = { portrait: 4 / 5, landscape: 1.91 } as const;

export function aspectRatio(size: { width: number; height: number }): number {
  return size.width > 0 && size.height > 0 ? size.width / size.height : 1;
}

/** Width ÷ height of the box a card draws a picture of this shape in. */
export function clampedRatio(size: { width: number; height: number }): number {
  return Math.min(RATIO_LIMITS.landscape, Math.max(RATIO_LIMITS.portrait, aspectRatio(size)));
}

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

/** "2.1 MB", "840 KB": a file's size as a person reads it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(bytes >= 10_000_000 ? 0 : 1)} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 1_000)} KB`;
  return `${bytes} bytes`;
}

/**
 * A panorama: wider than a card's widest box. Beside the post's details on a wide screen it would be a thin
 * strip; the post page shows it across the page's width instead, the details below.
 */
export function isPanorama(ratio: number): boolean {
  return ratio > RATIO_LIMITS.landscape;
}

/**
 * The width ÷ height of the post page's artwork box: one picture at its own shape (fitted to the window, it
 * needs no mat), several at the first one's clamped shape, like a card's carousel.
 */
export function pageBoxRatio(pictures: readonly { width: number; height: number }[]): number {
  const [first] = pictures;
  if (!first) return 4 / 3;
  return pictures.length === 1 ? aspectRatio(first) : clampedRatio(first);
}
