import type { UserPage } from '@share-arts/contract';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { takeBootData } from '../../../lib/boot-data';
import { suggestionsPath } from '../../../lib/first-requests';
import { userKeys } from './user-keys';

/** People the viewer does not follow yet, most relevant first. */
export function useSuggestions(limit: number) {
  return useQuery({
    queryKey: userKeys.suggestions(limit),
    queryFn: ({ signal }) => apiClient.get<UserPage>(suggestionsPath(limit), { signal }),
    // Beside the feeds the boot script has usually fetched them already (see lib/boot-data.ts).
    initialData: () => takeBootData<UserPage>('GET', suggestionsPath(limit)),
    // The list stays put while people follow from it (a followed person keeps a "Following" button).
    staleTime: 5 * 60_000,
  });
}
