import { TOASTS } from '@share-arts/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { apiClient } from '../../../lib/api-client';
import { endSession } from '../../../lib/session';
import { toast } from '../../../ui/toast';

/** How long LOG OUT waits for the server before it signs out here anyway. */
const LOGOUT_WAIT_MS = 5000;

/**
 * Ends the session on the server (POST /api/auth/logout: the token stops working everywhere), then clears
 * the token and the cache and lands on /landing. Without a network, or with a token the server already
 * refuses, it still signs out here.
 */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    await apiClient
      .post<null>('/api/auth/logout', undefined, { signal: AbortSignal.timeout(LOGOUT_WAIT_MS) })
      .catch(() => undefined);
    // Leave the guarded page first so the guard does not remember it as the place to return to.
    await navigate('/landing', { replace: true });
    endSession(queryClient);
    toast.success(TOASTS.loggedOut);
  }, [navigate, queryClient]);
}
