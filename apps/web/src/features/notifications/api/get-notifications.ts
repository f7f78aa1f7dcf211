import type { NotificationPage } from '@share-arts/contract';
import { infiniteQueryOptions, useInfiniteQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';
import { setUnreadCount } from './unread-count';

const PAGE_SIZE = 20;

export const notificationListQuery = (queryClient: QueryClient) =>
  infiniteQueryOptions({
    queryKey: notificationKeys.list(),
    queryFn: async ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (pageParam) params.set('cursor', pageParam);
      const page = await apiClient.get<NotificationPage>(`/api/notifications?${params}`, { signal });
      // Every page carries the current unread count: the bell agrees with the list it sits above.
      setUnreadCount(queryClient, page.unreadCount);
      return page;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    staleTime: 0,
  });

/** The grouped notifications, newest first, a page at a time. */
export function useNotifications() {
  const queryClient = useQueryClient();
  return useInfiniteQuery(notificationListQuery(queryClient));
}
