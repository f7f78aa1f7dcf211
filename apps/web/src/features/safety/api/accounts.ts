import { useInfiniteQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import type { AccountPage } from './safety-types';
import { safetyKeys } from './safety-keys';

const PAGE_SIZE = 20;

/** GET /api/users/me/blocks or /mutes, page by page. */
export function useAccountList(kind: 'blocks' | 'mutes') {
  return useInfiniteQuery({
    queryKey: safetyKeys.accounts(kind),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (pageParam) query.set('cursor', pageParam);
      return apiClient.get<AccountPage>(`/api/users/me/${kind}?${query.toString()}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}
