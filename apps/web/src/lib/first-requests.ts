import type { Sort } from '@share-arts/contract';

/**
 * The paths of the requests a page opens with. The boot script (src/boot/page-data.ts) sends them before
 * the app has loaded, and the app, sending the same request by the very same path, takes that answer
 * (lib/boot-data.ts). Dependency-free, like the picture sizes beside it: whatever this file imports ships
 * in the boot script.
 */

/** Posts per page: a screenful or two, small enough for a fast first answer. */
export const POST_PAGE_SIZE = 12;

/** The routes of the two feeds (Home and Explore). */
export const FEED_ROUTES = { feed: '/api/feed', explore: '/api/posts' } as const;

/** One page of a list of posts at `route`. */
export function pagePath(route: string, sort: Sort, cursor: string | null, extra?: Record<string, string>): string {
  const params = new URLSearchParams({ limit: String(POST_PAGE_SIZE), sort, ...extra });
  if (cursor) params.set('cursor', cursor);
  return `${route}?${params}`;
}

/** The request of one post. */
export const postPath = (postId: string) => `/api/posts/${encodeURIComponent(postId)}`;

/** Comments per page: enough to fill a screen, small enough for a quick answer. */
export const COMMENT_PAGE_SIZE = 20;

/** One page of a post's comments. */
export function commentPagePath(postId: string, order: 'oldest' | 'newest', cursor: string | null): string {
  const params = new URLSearchParams({ limit: String(COMMENT_PAGE_SIZE), order });
  if (cursor) params.set('cursor', cursor);
  return `/api/comments/${encodeURIComponent(postId)}?${params}`;
}

/** How many people "Who to follow" shows. */
export const SUGGESTIONS_SHOWN = 5;

/** The request of the suggestions (sent beside the feeds). */
export const suggestionsPath = (limit: number) => `/api/users/suggestions?limit=${limit}`;
