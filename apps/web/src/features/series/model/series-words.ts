import type { Post } from '@share-arts/contract';
import { formatCount } from '../../../lib/format-count';

const MAX_WORDS = 8;

/** "1 work", "1,204 works". */
export function workCountText(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'work' : 'works'}`;
}

/**
 * "Part 3 of" a series, from the work's 1-based place among the works the viewer can see and their number;
 * null when either is unknown or out of range (the bar then says "In" the series).
 */
export function partText(position: number | undefined, count: number | undefined): string | null {
  if (position === undefined || count === undefined) return null;
  if (!Number.isInteger(position) || !Number.isInteger(count) || position < 1 || position > count) return null;
  return `Part ${formatCount(position)} of`;
}

/**
 * A work's place in a series when the server names it (`position`, `workCount` beside an entry of
 * GET /api/posts/{id}/series), read without trusting their type.
 */
export function placeOf(entry: object): { position?: number; count?: number } {
  const { position, workCount } = entry as { position?: unknown; workCount?: unknown };
  return {
    position: typeof position === 'number' ? position : undefined,
    count: typeof workCount === 'number' ? workCount : undefined,
  };
}

/** A few words naming a work in a list: its first picture's alt text, else its first words. */
export function workName(post: Pick<Post, 'content' | 'picture' | 'media'>): string {
  const alt = (post.media?.[0] ?? post.picture)?.alt.trim();
  if (alt) return alt.length > 80 ? `${alt.slice(0, 80)}…` : alt;
  const words = post.content.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'Untitled work';
  return words.length > MAX_WORDS ? `${words.slice(0, MAX_WORDS).join(' ')}…` : words.join(' ');
}
