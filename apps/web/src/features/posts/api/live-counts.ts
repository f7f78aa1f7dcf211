import type { LivePostCounts } from '@share-arts/contract';
import type { QueryClient } from '@tanstack/react-query';
import { isToggleBusy } from '../../../lib/toggle-queue';
import { updateCachedPosts } from './post-cache';
import { postKeys } from './post-keys';
import { likeToggleKey } from './toggle-like';

/**
 * A post's like and comment counts from the live stream, in every cached list and on its page, without
 * a refetch. A count the viewer is changing right now is left alone: while their like is being sent
 * (or their comment written) the card shows the optimistic count, and the answer of that request brings
 * the server's.
 */
export function applyLiveCounts(queryClient: QueryClient, { postId, likeCount, commentCount }: LivePostCounts): void {
  const keepLikes = isToggleBusy(likeToggleKey(postId));
  const commentsPending = queryClient.isMutating({ mutationKey: postKeys.commentWrites(postId) }) > 0;
  const differs = (post: { likes: { likeCount: number }; commentCount: number }) =>
    (!keepLikes && post.likes.likeCount !== likeCount) || (!commentsPending && post.commentCount !== commentCount);
  updateCachedPosts(
    queryClient,
    (post) => post._id === postId && differs(post),
    (post) => ({
      ...post,
      likes: keepLikes ? post.likes : { ...post.likes, likeCount },
      commentCount: commentsPending ? post.commentCount : commentCount,
    }),
  );
}
