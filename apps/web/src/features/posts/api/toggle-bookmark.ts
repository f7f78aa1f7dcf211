import type { Post } from '@share-arts/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { useSignInFirst } from '../../../lib/session';
import { queueToggle } from '../../../lib/toggle-queue';
import { toast } from '../../../ui/toast';
import { updateCachedPosts } from './post-cache';
import { postKeys } from './post-keys';
import { postShadow } from './post-shadow';
import { resyncPost } from './toggle-like';

const sendBookmark = (postId: string, save: boolean) =>
  apiClient.post<{ bookmarks: unknown }>(
    `/api/users/${save ? 'bookmark' : 'remove-bookmark'}/${encodeURIComponent(postId)}`,
  );

/** Save / Remove from saved, optimistic and merged like the heart. */
export function useToggleBookmark(): (post: Post) => void {
  const queryClient = useQueryClient();
  // A visitor reading a shared page signs in first, and comes back here.
  const signInFirst = useSignInFirst();
  return useCallback(
    (post: Post) => {
      if (!signInFirst()) return;
      const postId = post._id;
      const next = !(postShadow.get(postId).bookmarked ?? post.viewer.bookmarked);
      postShadow.set(postId, { bookmarked: next });
      queueToggle({
        key: `bookmark:${postId}`,
        confirmed: post.viewer.bookmarked,
        desired: next,
        send: (target: boolean) => sendBookmark(postId, target),
        onSettled: (outcome) => {
          if (outcome.ok) {
            updateCachedPosts(
              queryClient,
              (cached) => cached._id === postId,
              (cached) => ({ ...cached, viewer: { ...cached.viewer, bookmarked: outcome.value } }),
            );
            postShadow.clear(postId, 'bookmarked');
            // No "Added to bookmark" / "Removed from Bookmark" toast (issue 19): the button shows the result
            // (filled, "Remove from saved"). Refusals still get theirs, below.
            // The profile's Saved tab gains or loses the post the next time it is shown.
            void queryClient.invalidateQueries({ queryKey: postKeys.listsOf('saved'), refetchType: 'none' });
            return;
          }
          postShadow.clear(postId, 'bookmarked');
          toast.error(errorMessage(outcome.error));
          void resyncPost(queryClient, postId);
        },
      });
    },
    [queryClient, signInFirst],
  );
}
