import { TAG_ROUTES, type Sort } from '@share-arts/contract';
import { FEED_ROUTES, pagePath } from '../../../lib/first-requests';
import type { PostListSource } from './post-keys';

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
    case 'pins':
      return `/api/users/${encodeURIComponent(source.username)}/pins`;
    case 'search':
      return '/api/search';
    case 'tag':
      return TAG_ROUTES.posts(source.tag);
  }
}

/** The request of one page of a list (a feed's first page by the boot script's very path, lib/first-requests.ts). */
export function postPagePath(source: PostListSource, sort: Sort, cursor: string | null): string {
  const extra =
    source.kind === 'search'
      ? { q: source.q, type: 'posts' }
      : // Explore and a tag's page narrowed to artists open for commissions (issue 42).
        (source.kind === 'explore' || source.kind === 'tag') && source.filter
        ? { ...source.filter }
        : undefined;
  return pagePath(route(source), sort, cursor, extra);
}
