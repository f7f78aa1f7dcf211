import type { CommentWriteResponse } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { removeCachedComment } from './comment-cache';
import { commentKeys, PREFER_MINIMAL } from './comment-keys';
import { syncPostComments } from './sync-post';

export const deleteComment = (postId: string, commentId: string) =>
  apiClient.post<CommentWriteResponse>(
    `/api/comments/delete/${encodeURIComponent(postId)}/${encodeURIComponent(commentId)}`,
    undefined,
    { headers: PREFER_MINIMAL },
  );

/** Deletes a comment (its author's, or any on the viewer's own post) once confirmed. */
export function useDeleteComment(postId: string, commentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: commentKeys.writes(postId),
    mutationFn: () => deleteComment(postId, commentId),
    onSuccess: (response) => {
      removeCachedComment(queryClient, postId, commentId);
      syncPostComments(queryClient, postId, response.post, -1);
    },
  });
}
