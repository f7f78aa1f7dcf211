import { t } from '@lingui/core/macro';
import type { AddCommentBody, Comment, CommentWriteResponse } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { isQueued } from '../../../lib/pwa/queued';
import { updateCachedPostComments } from '../../posts';
import { insertCachedComment, removeCachedComment, settlePendingComment } from './comment-cache';
import { commentKeys, PREFER_MINIMAL } from './comment-keys';
import { syncPostComments } from './sync-post';

export interface NewComment {
  content: string;
  /** The signed-in writer, drawn on the comment until the server's copy arrives. */
  author: { _id: string; username: string; userPhoto: string };
}

const PENDING_PREFIX = 'pending:';
let pendingCount = 0;

/** A comment shown at once but not yet stored by the server. */
export const isPendingComment = (comment: Comment) => comment._id.startsWith(PENDING_PREFIX);

export async function addComment(postId: string, content: string) {
  const body: AddCommentBody = { commentData: { content } };
  const response = await apiClient.post<CommentWriteResponse | { queued: true }>(
    `/api/posts/${encodeURIComponent(postId)}/comment`,
    body,
    // The key names this one comment if the service worker has to send it again (offline, issue 44).
    { headers: { ...PREFER_MINIMAL, 'idempotency-key': crypto.randomUUID() } },
  );
  // Offline: the service worker keeps it and sends it when the network is back; it stays shown as pending.
  if (isQueued(response)) return response;
  if (!response.comment) throw new Error(t`The server did not send the comment back.`);
  return response;
}

function pendingComment(postId: string, { content, author }: NewComment): Comment {
  pendingCount += 1;
  const now = new Date().toISOString();
  return {
    _id: `${PENDING_PREFIX}${pendingCount}`,
    postId,
    userId: author._id,
    username: author.username,
    userPhoto: author.userPhoto,
    content: content.trim(),
    createdAt: now,
    updatedAt: now,
    edited: false,
    votes: { upvoteCount: 0, downvoteCount: 0, upvotedBy: [], downvotedBy: [] },
    viewerVote: null,
  };
}

/** Posts a comment: it shows at once (and the post's count moves), then the server's copy takes its place. */
export function useAddComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: commentKeys.writes(postId),
    mutationFn: ({ content }: NewComment) => addComment(postId, content),
    onMutate: (draft) => {
      const pending = pendingComment(postId, draft);
      insertCachedComment(queryClient, pending);
      updateCachedPostComments(queryClient, postId, (post) => ({
        commentCount: post.commentCount + 1,
        comments: post.comments,
      }));
      return { pendingId: pending._id };
    },
    onSuccess: (response, _draft, context) => {
      if (isQueued(response)) return;
      settlePendingComment(queryClient, context.pendingId, response.comment!);
      syncPostComments(queryClient, postId, response.post, 0);
    },
    onError: (_error, _draft, context) => {
      if (!context) return;
      removeCachedComment(queryClient, postId, context.pendingId);
      updateCachedPostComments(queryClient, postId, (post) => ({
        commentCount: Math.max(0, post.commentCount - 1),
        comments: post.comments,
      }));
    },
  });
}
