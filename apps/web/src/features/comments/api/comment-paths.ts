/** Comments per page: enough to fill a screen, small enough for a quick answer. */
export const COMMENT_PAGE_SIZE = 20;

/**
 * One page of a post's comments. Dependency-free: the boot script asks for the first page of the post a
 * page opens on by this very path before the app has loaded, and the app takes that answer by it.
 */
export function commentPagePath(postId: string, order: 'oldest' | 'newest', cursor: string | null): string {
  const params = new URLSearchParams({ limit: String(COMMENT_PAGE_SIZE), order });
  if (cursor) params.set('cursor', cursor);
  return `/api/comments/${encodeURIComponent(postId)}?${params}`;
}
