import type {
  AuditPage,
  CreateServerBlockBody,
  ModerationActionBody,
  ModerationActionResult,
  ModerationQueue,
  ServerBlockList,
  ServerBlockResult,
  UpdateServerBlockBody,
} from '@share-arts/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient, fetchPrivatePicture } from '../../../lib/api-client';

export const moderationKeys = {
  all: ['moderation'] as const,
  queue: () => [...moderationKeys.all, 'queue'] as const,
  audit: () => [...moderationKeys.all, 'audit'] as const,
  servers: () => [...moderationKeys.all, 'servers'] as const,
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

/** GET /api/moderation/servers: the blocked servers, by domain. */
export function useServerBlocks() {
  return useQuery({
    queryKey: moderationKeys.servers(),
    queryFn: ({ signal }) => apiClient.get<ServerBlockList>('/api/moderation/servers', { signal }),
  });
}

/** POST, PATCH and DELETE /api/moderation/servers: the list and the audit log are read again. */
export function useServerBlockChange() {
  const queryClient = useQueryClient();
  const onSuccess = () => void queryClient.invalidateQueries({ queryKey: moderationKeys.all });
  return {
    block: useMutation({
      mutationFn: (body: CreateServerBlockBody) => apiClient.post<ServerBlockResult>('/api/moderation/servers', body),
      onSuccess,
    }),
    change: useMutation({
      mutationFn: ({ id, ...body }: UpdateServerBlockBody & { id: string }) =>
        apiClient.patch<ServerBlockResult>(`/api/moderation/servers/${encodeURIComponent(id)}`, body),
      onSuccess,
    }),
    lift: useMutation({
      mutationFn: (id: string) =>
        apiClient.delete<{ message: string }>(`/api/moderation/servers/${encodeURIComponent(id)}`),
      onSuccess,
    }),
  };
}

/**
 * A reported inquiry's reference picture (issue 42), fetched with the token from the moderators' route (it answers
 * moderators only, while the inquiry has an open report), as an object URL the caller revokes.
 */
export async function fetchReportedReference(url: string, signal: AbortSignal): Promise<string> {
  return fetchPrivatePicture(url, signal);
}
