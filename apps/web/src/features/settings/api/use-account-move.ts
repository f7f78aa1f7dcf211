import type { AccountMoveBody, AccountMoveResponse } from '@share-arts/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { sessionKeys } from '../../../lib/session';
import type { Confirmed } from '../../account/reauth';

/** Where the signed-in artist's account moved (issue 40, "Moving to another server"). */
export const accountMoveKey = ['federation', 'move'] as const;

/** GET /api/federation/move. */
export function useAccountMove() {
  return useQuery({
    queryKey: accountMoveKey,
    queryFn: ({ signal }) => apiClient.get<AccountMoveResponse>('/api/federation/move', { signal }),
  });
}

/**
 * POST /api/federation/move (`account` the new one) or DELETE it (null: the redirect cancelled), through "Confirm
 * it's you" when the server asks; the answer is the state shown, and the profile is read again (it says where the
 * account went).
 */
export function useChangeAccountMove(confirmed: Confirmed) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (account: string | null) =>
      confirmed(() => {
        if (account === null) return apiClient.delete<AccountMoveResponse>('/api/federation/move');
        const body: AccountMoveBody = { account };
        return apiClient.post<AccountMoveResponse>('/api/federation/move', body);
      }),
    onSuccess: async (state) => {
      queryClient.setQueryData(accountMoveKey, state);
      await queryClient.invalidateQueries({ queryKey: sessionKeys.currentUser() });
    },
  });
}
