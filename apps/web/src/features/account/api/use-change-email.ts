import type { SecurityMessage } from '@share-arts/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { sessionKeys } from '../../../lib/session';
import type { Confirmed } from '../lib/reauth';
import { securityLogKey } from './use-security-log';

/**
 * Changes the address (POST /api/account/email, issue 38): the new one is saved unconfirmed and mailed a link,
 * the old one is told and can undo it. The signed-in user and the security log are read again.
 */
export async function changeEmail(queryClient: QueryClient, email: string): Promise<SecurityMessage> {
  const answer = await apiClient.post<SecurityMessage>('/api/account/email', { email });
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: sessionKeys.currentUser() }),
    queryClient.invalidateQueries({ queryKey: securityLogKey }),
  ]);
  return answer;
}

/** Settings' "Change address", through "Confirm it's you" when the server asks. */
export function useChangeEmail(confirmed: Confirmed) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => confirmed(() => changeEmail(queryClient, email)),
  });
}
