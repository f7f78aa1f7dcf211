import type { FollowerPage } from '@share-arts/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

const PAGE_SIZE = 20;

/** The query key of an account's followers (by its id: a rename keeps the list). */
export const followersKey = (userId: string) => ['users', 'followers', userId] as const;

/**
 * An account's followers, here and on other servers of the fediverse (issue 39), newest follow first, a page at
 * a time (GET /api/users/{id}/followers). Asked for when the list is opened, and again each time it is.
 */
export function useFollowers(userId: string) {
  return useInfiniteQuery({
    queryKey: followersKey(userId),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (pageParam) params.set('cursor', pageParam);
      return apiClient.get<FollowerPage>(`/api/users/${encodeURIComponent(userId)}/followers?${params}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    staleTime: 0,
  });
}
