import { t } from '@lingui/core/macro';
import type { User } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { sessionKeys, setCurrentUser } from '../../../lib/session';
import { toast } from '../../../ui/toast';
import { setCachedProfile } from '../../people';

/** "Show my works to signed-in people only": saved on its own, as soon as it is switched. */
export function useWorksVisibility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (worksSignedInOnly: boolean) =>
      (await apiClient.post<{ user: User }>('/api/users/edit', { userData: { worksSignedInOnly } })).user,
    // A read of the current user sent before the switch must not land after its answer and switch it back.
    onMutate: () => queryClient.cancelQueries({ queryKey: sessionKeys.currentUser() }),
    onSuccess: (user) => {
      setCurrentUser(queryClient, user);
      setCachedProfile(queryClient, user);
      toast.success(
        user.worksSignedInOnly
          ? t`Your works are now shown to signed-in people only.`
          : t`Your works are now shown to everyone.`,
      );
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
}
