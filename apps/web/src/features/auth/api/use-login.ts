import { type LoginAnswer, type LoginBody } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { startSession } from '../../../lib/session';
import { toast } from '../../../ui/toast';
import { toastText } from '../../../lib/spec-toasts';

export const login = (body: LoginBody) => apiClient.post<LoginAnswer>('/api/auth/login', body);

/** Logs in, stores the token and the user; the auth layout then sends the user on. The page shows a refusal beside its field. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (answer) => {
      // Two-factor sign-in on (issue 24): no token yet; the page asks for the second step.
      if ('secondFactorRequired' in answer) return;
      startSession(queryClient, answer.encodedToken, answer.foundUser);
      toast.success(toastText('loggedIn'));
    },
  });
}
