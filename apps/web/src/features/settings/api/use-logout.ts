import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { apiClient, authHeader } from '../../../lib/api-client';
import { endSession } from '../../../lib/session';
import { toast } from '../../../ui/toast';
import { toastText } from '../../../lib/spec-toasts';

/** How long LOG OUT waits for the server before it signs out here anyway. */
const LOGOUT_WAIT_MS = 5000;

/**
 * Signs out here (lands on /landing, clears the token and the cache), then ends the session on the server
 * with the token it had (POST /api/auth/logout: the token stops working everywhere). Signed out first, the
 * live socket the server then closes is not taken for an expired session, which would send the next log-in
 * back to this page. Without a network, or with a token the server already refuses, it is signed out all
 * the same.
 */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    const headers = authHeader();
    // Leave the guarded page first so the guard does not remember it as the place to return to.
    await navigate('/landing', { replace: true });
    endSession(queryClient);
    await apiClient
      .post<null>('/api/auth/logout', undefined, { headers, signal: AbortSignal.timeout(LOGOUT_WAIT_MS) })
      .catch(() => undefined);
    toast.success(toastText('loggedOut'));
  }, [navigate, queryClient]);
}
