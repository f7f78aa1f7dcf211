import { t } from '@lingui/core/macro';
import type { User, UserSettingsInput } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { setCurrentUser } from '../../../lib/session';
import { toast } from '../../../ui/toast';
import { setCachedProfile } from '../../people';

/** A change of the viewer's settings (sensitive media, AI-generated works, AI crawlers): saved on its own at once. */
export function useRightsSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (settings: UserSettingsInput) =>
      (await apiClient.post<{ user: User }>('/api/users/edit', { userData: { settings } })).user,
    onSuccess: (user) => {
      setCurrentUser(queryClient, user);
      setCachedProfile(queryClient, user);
      toast.success(t`Settings saved.`);
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
}
