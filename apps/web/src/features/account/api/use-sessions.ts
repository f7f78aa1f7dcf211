import type {
  ChangePasswordBody,
  ChangePasswordResponse,
  EndOthersResponse,
  SessionsResponse,
} from '@share-arts/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { securityLogKey } from './use-security-log';

const sessionsKey = ['account', 'sessions'] as const;

const sessionsQuery = () =>
  queryOptions({
    queryKey: sessionsKey,
    queryFn: () => apiClient.get<SessionsResponse>('/api/sessions'),
    select: (answer) => answer.sessions,
  });

/** Where the account is signed in (GET /api/sessions), the most recently used first. */
export function useSessions() {
  return useQuery(sessionsQuery());
}

/** Ends one session (DELETE /api/sessions/:id): that device is signed out at once. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiClient.delete<null>(`/api/sessions/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

/** Ends every session but this one (POST /api/sessions/end-others). */
export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.post<EndOthersResponse>('/api/sessions/end-others'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

/**
 * Changes the password (POST /api/auth/password): every other session ends, this one stays; the security log
 * has a new line.
 */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => apiClient.post<ChangePasswordResponse>('/api/auth/password', body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sessionsKey }),
        queryClient.invalidateQueries({ queryKey: securityLogKey }),
      ]),
  });
}
