import { type User } from '@share-arts/contract';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { setCurrentUser, sessionKeys, useSignInFirst } from '../../../lib/session';
import { queueToggle } from '../../../lib/toggle-queue';
import { toast } from '../../../ui/toast';
import { applyFollow, type FollowResponse, type FollowSettled } from './follow-cache';
import { followShadow } from './follow-shadow';
import { toastText } from '../../../lib/spec-toasts';

type FollowListener = (change: FollowSettled, queryClient: QueryClient) => void;
const followListeners = new Set<FollowListener>();

/**
 * Lets other features keep their own copies in step with this one toggle, whichever button started it
 * (the posts feature: each card's "Follow" in its menu, and Home). Returns the unsubscribe function.
 */
export function onFollowSettled(listener: FollowListener): () => void {
  followListeners.add(listener);
  return () => followListeners.delete(listener);
}

/**
 * Every cached copy of the user follows the outcome (the listeners' first, then people's own), and only
 * then the shadow is dropped: the copies never show the old state in between.
 */
function settle(change: FollowSettled, queryClient: QueryClient): void {
  for (const listener of followListeners) listener(change, queryClient);
  applyFollow(queryClient, change);
  followShadow.clear(change.userId, 'follows');
}

const sendFollow = (userId: string, follow: boolean) =>
  apiClient.post<FollowResponse>(`/api/users/${follow ? 'follow' : 'unfollow'}/${encodeURIComponent(userId)}`);

/**
 * Follow / Following (a post's menu, a profile, suggestions); every post and copy of that user changes at once.
 * `announce`: show the spec's "Started Following" / "Removed from Following" toast. Only where nothing on the
 * page shows the result (the post menu, which closes); a Follow button shows it itself (issue 19).
 */
export function useToggleFollow(): (author: { userId: string; followsAuthor: boolean }, announce?: boolean) => void {
  const queryClient = useQueryClient();
  // A visitor reading a shared page signs in first, and comes back here.
  const signInFirst = useSignInFirst();
  return useCallback(
    ({ userId, followsAuthor }: { userId: string; followsAuthor: boolean }, announce = false) => {
      if (!signInFirst()) return;
      const next = !(followShadow.get(userId).follows ?? followsAuthor);
      followShadow.set(userId, { follows: next });
      queueToggle<boolean, FollowResponse>({
        key: `follow:${userId}`,
        confirmed: followsAuthor,
        desired: next,
        send: (target) => sendFollow(userId, target),
        onSettled: (outcome) => {
          if (outcome.ok) {
            settle({ userId, follows: outcome.value, response: outcome.result }, queryClient);
            if (!outcome.result) return;
            if (announce) toast.success(outcome.value ? toastText('followed') : toastText('unfollowed'));
            const me = queryClient.getQueryData<User | null>(sessionKeys.currentUser());
            const updated = [outcome.result.user, outcome.result.followUser].find(
              (user) => user && user._id === me?._id,
            );
            if (updated) setCurrentUser(queryClient, updated);
            return;
          }
          settle({ userId, follows: outcome.value, failed: true }, queryClient);
          toast.error(errorMessage(outcome.error));
        },
      });
    },
    [queryClient, signInFirst],
  );
}
