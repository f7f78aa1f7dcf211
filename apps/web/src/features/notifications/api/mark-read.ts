import type { MarkReadBody, NotificationPage, UnreadCount } from '@share-arts/contract';
import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../ui/toast';
import { notificationKeys } from './notification-keys';
import { invalidateNotifications, setUnreadCount } from './unread-count';

type ListData = InfiniteData<NotificationPage, string | null>;

/** Marks the groups read in the cached list; answers how many of them were unread. */
function markCachedRead(queryClient: QueryClient, body: MarkReadBody): number {
  let marked = 0;
  queryClient.setQueryData<ListData>(notificationKeys.list(), (data) => {
    if (!data) return data;
    const pages = data.pages.map((page) => {
      if (!page.notifications.some((n) => !n.read && ('all' in body || n.key === body.key))) return page;
      return {
        ...page,
        notifications: page.notifications.map((n) => {
          if (n.read || !('all' in body || n.key === body.key)) return n;
          marked += 1;
          return { ...n, read: true };
        }),
      };
    });
    return { ...data, pages };
  });
  return marked;
}

/** Marks one group (`{ key }`) or everything (`{ all: true }`) read: at once on screen, then on the server. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkReadBody) => apiClient.post<UnreadCount>('/api/notifications/read', body),
    onMutate: async (body) => {
      // A list request under way would bring the old read flags back.
      await queryClient.cancelQueries({ queryKey: notificationKeys.list() });
      const marked = markCachedRead(queryClient, body);
      const unread = queryClient.getQueryData<number>(notificationKeys.unreadCount());
      if (unread !== undefined) setUnreadCount(queryClient, 'all' in body ? 0 : Math.max(0, unread - marked));
    },
    onSuccess: ({ unreadCount }) => setUnreadCount(queryClient, unreadCount),
    onError: (error) => {
      toast.error(errorMessage(error));
      invalidateNotifications(queryClient);
      void queryClient.invalidateQueries({ queryKey: notificationKeys.unreadCount() });
    },
  });
}
