import { type SignupResponse } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { startSession } from '../../../lib/session';
import { toast } from '../../../ui/toast';
import { toastText } from '../../../lib/spec-toasts';

/** The spec's signup payload. */
export interface SignupInput {
  fullname: string;
  email: string;
  username: string;
  password: string;
}

export const signup = (body: SignupInput) => apiClient.post<SignupResponse>('/api/auth/signup', body);

export function useSignup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signup,
    onSuccess: ({ encodedToken, createdUser }) => {
      startSession(queryClient, encodedToken, createdUser);
      toast.success(toastText('signedUp'));
    },
  });
}
