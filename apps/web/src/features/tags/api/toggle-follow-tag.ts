import { TAG_ROUTES, type TagState } from '@share-arts/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { useSignInFirst } from '../../../lib/session';
import { queueToggle } from '../../../lib/toggle-queue';
import { toast } from '../../../ui/toast';
import { postKeys } from '../../posts';
import { tagKeys } from './tag-keys';

const sendFollow = (tag: string, follow: boolean) =>
  follow ? apiClient.post<TagState>(TAG_ROUTES.follow(tag)) : apiClient.delete<TagState>(TAG_ROUTES.follow(tag));

/**
 * Follow / Following a tag: shown at once, rapid taps merged into as few requests as the outcome needs
 * (lib/toggle-queue). Once the server holds it, Home is refetched when next shown (its posts of followed
 * tags changed) and the list of followed tags too.
 */
export function useToggleFollowTag(): (tag: string) => void {
  const queryClient = useQueryClient();
  // A visitor reading a shared tag page signs in first, and comes back here.
  const signInFirst = useSignInFirst();
  return useCallback(
    (tag: string) => {
      if (!signInFirst()) return;
      const key = tagKeys.state(tag);
      const current = queryClient.getQueryData<TagState>(key);
      if (!current) return;
      const desired = !current.following;
      queryClient.setQueryData<TagState>(key, { ...current, following: desired });
      queueToggle<boolean, TagState>({
        key: `follow-tag:${tag}`,
        // Used only when no request is queued for this tag, when the cache is what the server holds.
        confirmed: current.following,
        desired,
        send: (target) => sendFollow(tag, target),
        onSettled: (outcome) => {
          if (outcome.ok) {
            if (outcome.result) queryClient.setQueryData<TagState>(key, outcome.result);
            void queryClient.invalidateQueries({ queryKey: postKeys.listsOf('feed'), refetchType: 'none' });
            void queryClient.invalidateQueries({ queryKey: tagKeys.followed() });
            return;
          }
          queryClient.setQueryData<TagState>(key, (state) => state && { ...state, following: outcome.value });
          toast.error(errorMessage(outcome.error));
        },
      });
    },
    [queryClient, signInFirst],
  );
}
