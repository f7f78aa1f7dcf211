import { TOASTS } from '@share-arts/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { endSession } from '../../../lib/session';
import { toast } from '../../../ui/toast';

/** Clears the token and the cache, then lands on /landing. */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    // Leave the guarded page first so the guard does not remember it as the place to return to.
    await navigate('/landing', { replace: true });
    endSession(queryClient);
    toast.success(TOASTS.loggedOut);
  }, [navigate, queryClient]);
}
