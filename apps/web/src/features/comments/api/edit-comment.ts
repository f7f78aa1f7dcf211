import { t } from '@lingui/core/macro';
import type { CommentWriteResponse, EditCommentBody } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { replaceCachedComment } from './comment-cache';
import { commentKeys, PREFER_MINIMAL } from './comment-keys';
import { syncPostComments } from './sync-post';

export async function editComment(postId: string, commentId: string, content: string) {
  const body: EditCommentBody = { content };
  const response = await apiClient.post<CommentWriteResponse>(
    `/api/comments/edit/${encodeURIComponent(postId)}/${encodeURIComponent(commentId)}`,
    body,
    { headers: PREFER_MINIMAL },
  );
  if (!response.comment) throw new Error(t`The server did not send the comment back.`);
  return response;
}

/** Edits one's own comment; the server's copy (marked edited) replaces it once saved. */
export function useEditComment(postId: string, commentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: commentKeys.writes(postId),
    mutationFn: (content: string) => editComment(postId, commentId, content),
    onSuccess: (response) => {
      replaceCachedComment(queryClient, postId, commentId, response.comment!);
      syncPostComments(queryClient, postId, response.post, 0);
    },
  });
}
