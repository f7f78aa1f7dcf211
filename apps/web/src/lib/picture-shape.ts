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

/** "2.1 MB", "840 KB": a file's size as a person reads it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(bytes >= 10_000_000 ? 0 : 1)} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 1_000)} KB`;
  return `${bytes} bytes`;
}
