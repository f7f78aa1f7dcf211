import { TOASTS, type User } from '@share-arts/contract';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { setCurrentUser, sessionKeys } from '../../../lib/session';
import { queueToggle } from '../../../lib/toggle-queue';
import { toast } from '../../../ui/toast';
import { updateCachedPosts } from './post-cache';
import { postKeys } from './post-keys';
import { authorShadow } from './post-shadow';

interface FollowResponse {
  user?: User;
  followUser?: User;
}

/**
 * A follow toggle that went idle: `follows` is what the server holds as far as the queue knows; `response`
 * is absent when no request was needed; `failed` when the server refused (the cached state was stale).
 */
export interface FollowSettled {
  userId: string;
  follows: boolean;
  response?: FollowResponse;
  failed?: boolean;
}

type FollowListener = (change: FollowSettled, queryClient: QueryClient) => void;
const followListeners = new Set<FollowListener>();

/**
 * Lets other features keep their own copies of users (profiles, suggestions, search) in step with this
 * one toggle, whichever button started it. Returns the unsubscribe function.
 */
export function onFollowSettled(listener: FollowListener): () => void {
  followListeners.add(listener);
  return () => followListeners.delete(listener);
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
  return useCallback(
    ({ userId, followsAuthor }: { userId: string; followsAuthor: boolean }, announce = false) => {
      const next = !(authorShadow.get(userId).followsAuthor ?? followsAuthor);
      authorShadow.set(userId, { followsAuthor: next });
      queueToggle<boolean, FollowResponse>({
        key: `follow:${userId}`,
        confirmed: followsAuthor,
        desired: next,
        send: (target) => sendFollow(userId, target),
        onSettled: (outcome) => {
          if (outcome.ok) {
            updateCachedPosts(
              queryClient,
              (post) => post.userId === userId,
              (post) => ({ ...post, viewer: { ...post.viewer, followsAuthor: outcome.value } }),
            );
            for (const listener of followListeners) {
              listener({ userId, follows: outcome.value, response: outcome.result }, queryClient);
            }
            authorShadow.clear(userId, 'followsAuthor');
            if (!outcome.result) return;
            if (announce) toast.success(outcome.value ? TOASTS.followed : TOASTS.unfollowed);
            const me = queryClient.getQueryData<User | null>(sessionKeys.currentUser());
            const updated = [outcome.result.user, outcome.result.followUser].find(
              (user) => user && user._id === me?._id,
            );
            if (updated) setCurrentUser(queryClient, updated);
            // Home shows the posts of the people I follow: refresh it the next time it is shown.
            void queryClient.invalidateQueries({ queryKey: postKeys.listsOf('feed'), refetchType: 'none' });
            return;
          }
          for (const listener of followListeners) {
            listener({ userId, follows: outcome.value, failed: true }, queryClient);
          }
          authorShadow.clear(userId, 'followsAuthor');
          toast.error(errorMessage(outcome.error));
        },
      });
    },
    [queryClient],
  );
}
