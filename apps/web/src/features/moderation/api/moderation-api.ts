import type { AuditPage, ModerationActionBody, ModerationActionResult, ModerationQueue } from '@share-arts/contract';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

export const moderationKeys = {
  all: ['moderation'] as const,
  queue: () => [...moderationKeys.all, 'queue'] as const,
  audit: () => [...moderationKeys.all, 'audit'] as const,
};

const pageUrl = (path: string, cursor: string | null) =>
  cursor ? `${path}?${new URLSearchParams({ cursor }).toString()}` : path;

/** GET /api/moderation/reports: targets with open reports, the longest waiting first. */
export function useModerationQueue() {
  return useInfiniteQuery({
    queryKey: moderationKeys.queue(),
    queryFn: ({ pageParam, signal }) =>
      apiClient.get<ModerationQueue>(pageUrl('/api/moderation/reports', pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

/** GET /api/moderation/audit (admins). */
export function useAuditLog() {
  return useInfiniteQuery({
    queryKey: moderationKeys.audit(),
    queryFn: ({ pageParam, signal }) =>
      apiClient.get<AuditPage>(pageUrl('/api/moderation/audit', pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

/** POST /api/moderation/actions; the queue and the log are read again, and every post list (a post may be gone). */
export function useModerationAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ModerationActionBody) => apiClient.post<ModerationActionResult>('/api/moderation/actions', body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: moderationKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['posts'] });
    },
  });
}
