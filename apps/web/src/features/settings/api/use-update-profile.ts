import { TOASTS, type User } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { setCurrentUser } from '../../../lib/session';
import { toast } from '../../../ui/toast';

export interface ProfileInput {
  firstName: string;
  lastName: string;
  email: string;
  bio: string;
  link: string;
}

export const updateProfile = (userData: ProfileInput) =>
  apiClient.post<{ user: User }>('/api/users/edit', { userData });

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: ({ user }) => {
      setCurrentUser(queryClient, user);
      toast.success(TOASTS.profileUpdated);
    },
    onError: (error) => {
      toast.error(errorMessage(error));
    },
  });
}
