import type { Post, PostPage } from '@share-arts/contract';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { postKeys } from './post-keys';

export type PostListData = InfiniteData<PostPage, string | null>;

/**
 * Writes `next(data)` into every cached query under `queryKey` whose data it changes, and into no other.
 * Writing a query's data clears its "invalidated" mark, so a list invalidated to be refetched the next
 * time it is shown (the Saved tab after an unsave) keeps that mark: a live count arriving meanwhile must
 * not turn its old page back into a fresh one.
 */
function patchQueries<T>(queryClient: QueryClient, queryKey: readonly unknown[], next: (data: T) => T): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey })) {
    const data = query.state.data as T | undefined;
    if (data === undefined) continue;
    const patched = next(data);
    if (patched === data) continue;
    const invalidated = query.state.isInvalidated;
    queryClient.setQueryData(query.queryKey, patched);
    if (invalidated) query.invalidate();
  }
}

function mapLists(queryClient: QueryClient, mapPosts: (posts: Post[]) => Post[]): void {
  patchQueries<PostListData>(queryClient, postKeys.lists(), (data) => {
    let changed = false;
    const pages = data.pages.map((page) => {
      const posts = mapPosts(page.posts);
      if (posts === page.posts) return page;
      changed = true;
      return { ...page, posts };
    });
    return changed ? { ...data, pages } : data;
  });
}

/** Applies `update` to every cached copy of the posts `match` picks: in every list and on the post page. */
export function updateCachedPosts(
  queryClient: QueryClient,
  match: (post: Post) => boolean,
  update: (post: Post) => Post,
) {
  mapLists(queryClient, (posts) => {
    if (!posts.some(match)) return posts;
    return posts.map((post) => (match(post) ? update(post) : post));
  });
  patchQueries<Post>(queryClient, postKeys.details(), (post) => (match(post) ? update(post) : post));
}

/**
 * After a comment was written: the post's comment count and newest comments, everywhere it is cached.
 * Used by the comments feature, which owns the comments themselves.
 */
export function updateCachedPostComments(
  queryClient: QueryClient,
  postId: string,
  update: (post: Post) => Pick<Post, 'commentCount' | 'comments'>,
): void {
  updateCachedPosts(
    queryClient,
    (post) => post._id === postId,
    (post) => ({ ...post, ...update(post) }),
  );
}

/** Puts the server's copy of a post everywhere it is cached. */
export function replaceCachedPost(queryClient: QueryClient, fresh: Post): void {
  updateCachedPosts(
    queryClient,
    (post) => post._id === fresh._id,
    () => fresh,
  );
}

/** Drops a deleted post from every list and forgets its page. */
export function removeCachedPost(queryClient: QueryClient, postId: string): void {
  mapLists(queryClient, (posts) =>
    posts.some((post) => post._id === postId) ? posts.filter((post) => post._id !== postId) : posts,
  );
  queryClient.removeQueries({ queryKey: postKeys.detail(postId) });
}

/** A cached copy of a post, from its page or any list, to show at once while the page loads. */
export function findCachedPost(queryClient: QueryClient, postId: string): Post | undefined {
  const detail = queryClient.getQueryData<Post>(postKeys.detail(postId));
  if (detail) return detail;
  for (const [, data] of queryClient.getQueriesData<PostListData>({ queryKey: postKeys.lists() })) {
    for (const page of data?.pages ?? []) {
      const found = page.posts.find((post) => post._id === postId);
      if (found) return found;
    }
  }
  return undefined;
}
