import type { LookupResponse } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { apiClient } from '../../../lib/api-client';
import { profilePath } from '../../../lib/handle';
import { userKeys } from '../../people';

/** Where the lookup's answer lives here: a person's profile, or a work's page. */
export function lookupDestination(found: LookupResponse): string {
  return found.kind === 'person' ? profilePath(found.username) : `/posts/${encodeURIComponent(found.postId)}`;
}

/**
 * Finds a person or a work on another server (following out, issue 39) and opens its page here. An action, not a
 * cached query: each lookup asks the other server again (the server refreshes what it knew), and a failure is
 * not retried (a server that did not answer is said so at once; the person may try again).
 */
export function useRemoteLookup() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (q: string) => apiClient.get<LookupResponse>(`/api/federation/lookup?${new URLSearchParams({ q })}`),
    onSuccess: async (found) => {
      // The person may have been refreshed (name, bio) since their profile was last read here.
      if (found.kind === 'person') await queryClient.invalidateQueries({ queryKey: userKeys.profile(found.username) });
    },
  });
  const { mutate } = mutation;
  return {
    ...mutation,
    // Opens what was found only from the page that asked, for the newest lookup: TanStack Query drops a call's own
    // callbacks once its page is left (someone who went elsewhere meanwhile stays there) or another call follows.
    mutate: useCallback(
      (q: string) => mutate(q, { onSuccess: (found) => void navigate(lookupDestination(found)) }),
      [mutate, navigate],
    ),
  };
}
