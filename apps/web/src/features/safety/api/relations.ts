import { t } from '@lingui/core/macro';
import type { User } from '@share-arts/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../ui/toast';
import { userKeys } from '../../people';

export type Relation = 'block' | 'mute';

const path = (relation: Relation, username: string) => `/api/users/${encodeURIComponent(username)}/${relation}`;

/** POST (on) or DELETE (off) /api/users/{username}/block|mute; idempotent. */
export async function sendRelation(relation: Relation, username: string, on: boolean): Promise<void> {
  if (on) await apiClient.post(path(relation, username));
  else await apiClient.delete(path(relation, username));
}

/** What a toast says after the change, in the current language (said when called). */
function doneMessage(relation: Relation, on: boolean, name: string): string {
  if (relation === 'block') return on ? t`You blocked @${name}.` : t`You unblocked @${name}.`;
  return on ? t`You muted @${name}. Their posts leave your lists.` : t`You unmuted @${name}.`;
}

/**
 * After a block or a mute, the person's posts, comments and profile read differently everywhere: the
 * profile changes at once, and every list is read again (the active ones now, the others when shown).
 */
export function afterRelationChange(queryClient: QueryClient, relation: Relation, username: string, on: boolean) {
  const key = relation === 'block' ? 'blocked' : 'muted';
  queryClient.setQueryData<User>(userKeys.profile(username), (user) =>
    user ? { ...user, viewer: { ...user.viewer, [key]: on } } : user,
  );
  // A block also ends the follows both ways (the profile's counts and Follow button are read again).
  void queryClient.invalidateQueries();
}

/** Block / Unblock or Mute / Unmute someone, with a toast saying what happened. */
export function useRelation(relation: Relation) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ username, on }: { username: string; on: boolean }) => sendRelation(relation, username, on),
    onSuccess: (_result, { username, on }) => {
      afterRelationChange(queryClient, relation, username, on);
      toast.success(doneMessage(relation, on, username));
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
}

/** The same outside React (a post's "Mute @author", loaded when chosen). */
export async function toggleRelation(queryClient: QueryClient, relation: Relation, username: string, on: boolean) {
  try {
    await sendRelation(relation, username, on);
    afterRelationChange(queryClient, relation, username, on);
    toast.success(doneMessage(relation, on, username));
  } catch (error) {
    toast.error(errorMessage(error));
  }
}
