import type { Sort } from '@share-arts/contract';
import type { PostListSource } from './post-keys';

/** Posts per page: a screenful or two, small enough for a fast first answer. */
export const POST_PAGE_SIZE = 12;

/** The routes of the two feeds (Home and Explore). */
export const FEED_ROUTES = { feed: '/api/feed', explore: '/api/posts' } as const;

function route(source: PostListSource): string {
  switch (source.kind) {
    case 'feed':
    case 'explore':
      return FEED_ROUTES[source.kind];
    case 'liked':
      return '/api/posts/liked';
    case 'user':
      return `/api/posts/user/${encodeURIComponent(source.username)}`;
    case 'saved':
      return '/api/users/bookmark';
    case 'search':
      return '/api/search';
  }
}

/**
 * One page of `route`. Dependency-free, like the rest of this file: the boot script (src/boot) asks for
 * the first page of a feed with this very path before the app has loaded, and the app takes that answer
 * by it.
 */
export function pagePath(route: string, sort: Sort, cursor: string | null, extra?: Record<string, string>): string {
  const params = new URLSearchParams({ limit: String(POST_PAGE_SIZE), sort, ...extra });
  if (cursor) params.set('cursor', cursor);
  return `${route}?${params}`;
}

/** The request of one page of a list. */
export function postPagePath(source: PostListSource, sort: Sort, cursor: string | null): string {
  return pagePath(route(source), sort, cursor, source.kind === 'search' ? { q: source.q, type: 'posts' } : undefined);
}

/** The request of one post (the boot script asks for the post a page opens on by this same path). */
export const postPath = (postId: string) => `/api/posts/${encodeURIComponent(postId)}`;
