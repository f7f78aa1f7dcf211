import type { Post } from '@share-arts/contract';
import type { QueryClient } from '@tanstack/react-query';
import { updateCachedPostComments } from '../../posts';
import { commentKeys } from './comment-keys';

/**
 * After a comment write: the post's count (and newest comments) on its page and its cards. The server's
 * copy is taken when no other write on that post is still under way; otherwise `delta` keeps the count
 * right until the last one answers.
 */
export function syncPostComments(queryClient: QueryClient, postId: string, server: Post | undefined, delta: number) {
  // The write calling this is itself still counted as pending.
  const othersPending = queryClient.isMutating({ mutationKey: commentKeys.writes(postId) }) > 1;
  updateCachedPostComments(queryClient, postId, (post) =>
    server && !othersPending
      ? { commentCount: server.commentCount, comments: server.comments }
      : { commentCount: Math.max(0, post.commentCount + delta), comments: server?.comments ?? post.comments },
  );
}
