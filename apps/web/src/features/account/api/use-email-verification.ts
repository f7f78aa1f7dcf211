import type { AccountEmailMessage, SecurityMessage } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { endSession, sessionKeys } from '../../../lib/session';
import { getToken } from '../../../lib/token-storage';

/** Confirms the address with the mailed link's token; the signed-in user (if any) is read again. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiClient.post<AccountEmailMessage>('/api/auth/verify-email', { token }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.currentUser() }),
  });
}

/** Mails a new confirmation link to the signed-in user's address. */
export function useResendConfirmation() {
  return useMutation({
    mutationFn: () => apiClient.post<AccountEmailMessage>('/api/auth/verify-email/resend'),
  });
}

/**
 * Undoes a change of address with the link mailed to the old one (POST /api/auth/undo-email, issue 38). The
 * server signs out every session of the account, so a token stored here is forgotten as a log-out does.
 */
export function useUndoEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiClient.post<SecurityMessage>('/api/auth/undo-email', { token }),
    onSuccess: () => {
      if (getToken()) endSession(queryClient);
    },
  });
}
