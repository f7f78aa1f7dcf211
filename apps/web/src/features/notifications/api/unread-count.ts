import type { UnreadCount } from '@share-arts/contract';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

/** The unread groups. The live stream keeps it current; this request covers the first render and no stream. */
export const unreadCountQuery = () =>
  queryOptions({
    queryKey: notificationKeys.unreadCount(),
    queryFn: async ({ signal }) =>
      (await apiClient.get<UnreadCount>('/api/notifications/unread-count', { signal })).unreadCount,
    staleTime: 60_000,
  });

/** How many notification groups are unread (0 until known). */
export function useUnreadCount(): number {
  return useQuery(unreadCountQuery()).data ?? 0;
}

export function setUnreadCount(queryClient: QueryClient, unreadCount: number): void {
  queryClient.setQueryData(notificationKeys.unreadCount(), unreadCount);
}

/** Something new or changed: the list is fetched again where it is shown, and on its next visit. */
export function invalidateNotifications(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: notificationKeys.list() });
}
