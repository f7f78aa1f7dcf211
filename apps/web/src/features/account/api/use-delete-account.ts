import type { DeleteAccountBody, DeleteAccountResponse } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { apiClient } from '../../../lib/api-client';
import { endSession } from '../../../lib/session';
import { toast } from '../../../ui/toast';

/** What the landing page's toast says once the account is gone. */
export const ACCOUNT_DELETED_MESSAGE =
  'Your account is deleted: your posts, pictures, comments and everything else you made here are gone. Thank you for the art you shared.';

/**
 * Deletes the signed-in account (POST /api/account/delete), then ends the session here as a log-out does
 * and lands on /landing with a sentence that it is done.
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (body: DeleteAccountBody) => apiClient.post<DeleteAccountResponse>('/api/account/delete', body),
    onSuccess: async () => {
      // Leave the guarded page first so the guard does not remember it as the place to return to.
      await navigate('/landing', { replace: true });
      endSession(queryClient);
      toast.success(ACCOUNT_DELETED_MESSAGE);
    },
  });
}
