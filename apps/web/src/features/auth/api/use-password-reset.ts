import type { AccountEmailMessage, ForgotPasswordBody, ResetPasswordBody } from '@share-arts/contract';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** "Forgot password?": the server answers the same sentence whatever was typed (issue 24). */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordBody) => apiClient.post<AccountEmailMessage>('/api/auth/forgot', body),
  });
}

/** A new password with the token of the mailed link; every session of the account ends. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordBody) => apiClient.post<AccountEmailMessage>('/api/auth/reset', body),
  });
}
