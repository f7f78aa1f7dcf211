import type { Commissions, CommissionsBody, CommissionsResponse, PostPage } from '@share-arts/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from '../../people';

/** Query keys of commission panels (issue 42), by username in lower case (usernames are unique in any case). */
export const commissionKeys = {
  all: ['commissions'] as const,
  panel: (username: string) => [...commissionKeys.all, 'panel', username.toLowerCase()] as const,
  ownWorks: () => [...commissionKeys.all, 'own-works'] as const,
};

const panelPath = (username: string) => `/api/users/${encodeURIComponent(username)}/commissions`;

/** An artist's commission panel as the viewer sees it. */
export function useCommissions(username: string) {
  return useQuery({
    queryKey: commissionKeys.panel(username),
    queryFn: async ({ signal }) =>
      (await apiClient.get<CommissionsResponse>(panelPath(username), { signal })).commissions,
  });
}

/** Saves the signed-in artist's whole panel; their profile (its badge) and panel are read again. */
export function useSaveCommissions(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CommissionsBody) =>
      (await apiClient.put<CommissionsResponse>('/api/commissions', body)).commissions,
    onSuccess: (saved: Commissions) => {
      queryClient.setQueryData(commissionKeys.panel(username), saved);
      void queryClient.invalidateQueries({ queryKey: userKeys.profile(username) });
    },
  });
}

/** "Tell me when they open" on or off. */
export function useWatchCommissions(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (on: boolean) =>
      (
        await (on
          ? apiClient.post<CommissionsResponse>(`${panelPath(username)}/watch`)
          : apiClient.delete<CommissionsResponse>(`${panelPath(username)}/watch`))
      ).commissions,
    onSuccess: (saved: Commissions) => queryClient.setQueryData(commissionKeys.panel(username), saved),
  });
}

/** The artist's own newest works, for the example picker (one page of 50: the newest are the likely examples). */
export function useOwnWorks(username: string) {
  return useQuery({
    queryKey: [...commissionKeys.ownWorks(), username.toLowerCase()],
    queryFn: ({ signal }) =>
      apiClient.get<PostPage>(`/api/posts/user/${encodeURIComponent(username)}?limit=50`, { signal }),
  });
}
