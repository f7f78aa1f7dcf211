import type { Post, PostResponse } from '@share-arts/contract';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { isQueued } from '../../../lib/pwa/queued';
import { useSignInFirst } from '../../../lib/session';
import { queueToggle } from '../../../lib/toggle-queue';
import { toast } from '../../../ui/toast';
import { getPost } from './get-post';
import { replaceCachedPost, updateCachedPosts } from './post-cache';
import { postKeys, PREFER_MINIMAL } from './post-keys';
import { postShadow } from './post-shadow';

/** The toggle queue's key of a post's heart (see lib/toggle-queue.ts). */
export const likeToggleKey = (postId: string) => `like:${postId}`;

/** Like, or "unlike" (the spec's dislike: it removes the like). */
const sendLike = (postId: string, like: boolean) =>
  apiClient.post<PostResponse>(`/api/posts/${like ? 'like' : 'dislike'}/${encodeURIComponent(postId)}`, undefined, {
    headers: PREFER_MINIMAL,
  });

/** After a refusal the cache was probably stale: fetch the post's real state. */
export async function resyncPost(queryClient: QueryClient, postId: string): Promise<void> {
  try {
    replaceCachedPost(queryClient, await getPost(postId));
  } catch {
    // The post may be gone; the lists refresh on their next visit.
  }
}

/** The heart: shows the new state at once, sends only the last wish of rapid clicks, rolls back on refusal. */
export function useToggleLike(): (post: Post) => void {
  const queryClient = useQueryClient();
  // A visitor reading a shared page signs in first, and comes back here.
  const signInFirst = useSignInFirst();
  return useCallback(
    (post: Post) => {
      if (!signInFirst()) return;
      const postId = post._id;
      const next = !(postShadow.get(postId).liked ?? post.viewer.liked);
      postShadow.set(postId, { liked: next });
      queueToggle<boolean, PostResponse>({
        key: likeToggleKey(postId),
        confirmed: post.viewer.liked,
        desired: next,
        send: (target) => sendLike(postId, target),
        onSettled: (outcome) => {
          if (outcome.ok) {
            if (isQueued(outcome.result)) {
              // Offline: the service worker sends it when the network is back (issue 44); the heart stays as wished.
              const liked = outcome.value;
              updateCachedPosts(
                queryClient,
                (cached) => cached._id === postId && cached.viewer.liked !== liked,
                (cached) => ({
                  ...cached,
                  likes: { ...cached.likes, likeCount: Math.max(0, cached.likes.likeCount + (liked ? 1 : -1)) },
                  viewer: { ...cached.viewer, liked, disliked: liked ? false : cached.viewer.disliked },
                }),
              );
            } else if (outcome.result?.post) replaceCachedPost(queryClient, outcome.result.post);
            postShadow.clear(postId, 'liked');
            // No "Liked Successful" / "disliked  successfully" toast (issue 19): the heart and the count already
            // show the result, and a toast on every like was noise. Refusals still get theirs, below.
            // The profile's Liked tab gains or loses the post the next time it is shown.
            void queryClient.invalidateQueries({ queryKey: postKeys.listsOf('liked'), refetchType: 'none' });
            return;
          }
          postShadow.clear(postId, 'liked');
          // The spec: a refused like shows the server's message; a refused dislike is silent.
          if (outcome.failedTarget) toast.error(errorMessage(outcome.error));
          void resyncPost(queryClient, postId);
        },
      });
    },
    [queryClient, signInFirst],
  );
}
