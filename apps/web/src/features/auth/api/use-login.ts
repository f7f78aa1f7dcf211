import { TOASTS, type LoginBody, type LoginResponse } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { startSession } from '../../../lib/session';
import { toast } from '../../../ui/toast';

export const login = (body: LoginBody) => apiClient.post<LoginResponse>('/api/auth/login', body);

/** Logs in, stores the token and the user; the auth layout then sends the user on. The page shows a refusal beside its field. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ encodedToken, foundUser }) => {
      startSession(queryClient, encodedToken, foundUser);
      toast.success(TOASTS.loggedIn);
    },
  });
}
