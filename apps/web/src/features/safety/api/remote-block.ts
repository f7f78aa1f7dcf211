import { t } from '@lingui/core/macro';
import type { PersonSummary } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../ui/toast';

/** Someone on another server (issue 39): a follower's or notification actor's summary with `remote`. */
export type RemotePersonSummary = PersonSummary & { remote: NonNullable<PersonSummary['remote']> };

/** POST (on) or DELETE (off) /api/remote-people/{id}/block; idempotent. */
export async function sendRemoteBlock(id: string, on: boolean): Promise<void> {
  const path = `/api/remote-people/${encodeURIComponent(id)}/block`;
  if (on) await apiClient.post(path);
  else await apiClient.delete(path);
}

/**
 * Block / Unblock someone on another server, with a toast saying what happened. Their follow, likes, boosts and
 * notifications end with the block, so every list is read again (the followers, the counts, Settings' list).
 */
export function useRemoteBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ person, on }: { person: RemotePersonSummary; on: boolean }) => sendRemoteBlock(person._id, on),
    onSuccess: (_result, { person, on }) => {
      void queryClient.invalidateQueries();
      const name = person.remote.handle;
      toast.success(on ? t`You blocked @${name}.` : t`You unblocked @${name}.`);
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
}
