import type { PostPage, Sort } from '@share-arts/contract';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { postKeys, type PostListSource } from './post-keys';

/** Posts per page: a screenful or two, small enough for a fast first answer. */
const PAGE_SIZE = 12;

function path(source: PostListSource): string {
  switch (source.kind) {
    case 'feed':
      return '/api/feed';
    case 'explore':
      return '/api/posts';
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

/** The Saved tab's route answers `bookmarks` where the others answer `posts`. */
type PageResponse = PostPage | { bookmarks: PostPage['posts']; nextCursor: PostPage['nextCursor'] };

export const getPostPage = async (
  source: PostListSource,
  sort: Sort,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<PostPage> => {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE), sort });
  if (source.kind === 'search') {
    params.set('q', source.q);
    params.set('type', 'posts');
  }
  if (cursor) params.set('cursor', cursor);
  const page = await apiClient.get<PageResponse>(`${path(source)}?${params}`, { signal });
  return 'bookmarks' in page ? { posts: page.bookmarks, nextCursor: page.nextCursor } : page;
};

/** A paged list of posts, one page per request, following each page's `nextCursor`. */
export const postListQuery = (source: PostListSource, sort: Sort) =>
  infiniteQueryOptions({
    queryKey: postKeys.list(source, sort),
    queryFn: ({ pageParam, signal }) => getPostPage(source, sort, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
