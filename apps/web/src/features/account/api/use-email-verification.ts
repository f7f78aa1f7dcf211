import type { AccountEmailMessage } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { sessionKeys } from '../../../lib/session';

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
