import { plural, t } from '@lingui/core/macro';
import type { Post } from '@share-arts/contract';
import { formatCount } from '../../../lib/format-count';

const MAX_WORDS = 8;

/** "1 work", "1,204 works", in the app's language. */
export function workCountText(count: number): string {
  return t`${plural(count, { one: '# work', other: '# works' })}`;
}

/**
 * The part a work is of a series ("3", "1,204": the bar says "Part 3 of" the series), from its 1-based place
 * among the works the viewer can see and their number; null when either is unknown or out of range (the bar
 * then says "In" the series).
 */
export function partNumber(position: number | undefined, count: number | undefined): string | null {
  if (position === undefined || count === undefined) return null;
  if (!Number.isInteger(position) || !Number.isInteger(count) || position < 1 || position > count) return null;
  return formatCount(position);
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
  if (words.length === 0) return t`Untitled work`;
  return words.length > MAX_WORDS ? `${words.slice(0, MAX_WORDS).join(' ')}…` : words.join(' ');
}
