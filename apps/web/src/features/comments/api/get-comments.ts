import type { CommentPage } from '@share-arts/contract';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { commentKeys, type CommentOrder } from './comment-keys';

/** Comments per page: enough to fill a screen, small enough for a quick answer. */
export const COMMENT_PAGE_SIZE = 20;

export const getCommentPage = (postId: string, order: CommentOrder, cursor: string | null, signal?: AbortSignal) => {
  const params = new URLSearchParams({ limit: String(COMMENT_PAGE_SIZE), order });
  if (cursor) params.set('cursor', cursor);
  return apiClient.get<CommentPage>(`/api/comments/${encodeURIComponent(postId)}?${params}`, { signal });
};

/** A post's comments, one page per request, following each page's `nextCursor`. */
export const commentListQuery = (postId: string, order: CommentOrder) =>
  infiniteQueryOptions({
    queryKey: commentKeys.list(postId, order),
    queryFn: ({ pageParam, signal }) => getCommentPage(postId, order, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
