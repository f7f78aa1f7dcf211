import type { UserPage } from '@share-arts/contract';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';

/** People the viewer does not follow yet, most relevant first. */
export function useSuggestions(limit: number) {
  return useQuery({
    queryKey: userKeys.suggestions(limit),
    queryFn: ({ signal }) => apiClient.get<UserPage>(`/api/users/suggestions?limit=${limit}`, { signal }),
    // The list stays put while people follow from it (a followed person keeps a "Following" button).
    staleTime: 5 * 60_000,
  });
}
