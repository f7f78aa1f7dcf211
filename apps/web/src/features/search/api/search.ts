import { SEARCH_LIMITS, type SearchResponse, type UserPage } from '@share-arts/contract';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from '../../people';

/** Posts shown in the header's dropdown (people: the server's best 5). */
export const DROPDOWN_POSTS = 4;
const PEOPLE_PAGE = 10;

export const searchKeys = {
  all: ['search'] as const,
  dropdown: (q: string) => [...searchKeys.all, 'dropdown', q] as const,
};

/** A search string the server accepts: trimmed, 1 to 100 characters. */
export function searchTerm(text: string): string {
  return text.trim().slice(0, SEARCH_LIMITS.queryMax);
}

/**
 * The header's results as you type: the best people and a few posts. A newer term replaces the query,
 * and TanStack Query aborts the older request through its AbortSignal.
 */
export function useSearchDropdown(q: string) {
  return useQuery({
    queryKey: searchKeys.dropdown(q),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ q, type: 'all', limit: String(DROPDOWN_POSTS) });
      return apiClient.get<SearchResponse>(`/api/search?${params}`, { signal });
    },
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** People matching `q`, paged (the search page's People section). */
export function useSearchPeople(q: string, filter?: Readonly<Record<string, string>>) {
  return useInfiniteQuery({
    // Narrowed to artists open for commissions (issue 42): a list of its own.
    queryKey: filter ? [...userKeys.search(q), filter] : userKeys.search(q),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ q, type: 'users', limit: String(PEOPLE_PAGE), ...filter });
      if (pageParam) params.set('cursor', pageParam);
      return apiClient.get<UserPage>(`/api/search?${params}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    enabled: q.length > 0,
  });
}
