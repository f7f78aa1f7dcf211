import type { ReauthenticateBody, ReauthenticateResponse } from '@share-arts/contract';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { askPasskey } from '../../../lib/passkey';

/** How the person proves it is them: the password, a code from the app (or a recovery code), or a passkey. */
export type ReauthProof = { password: string } | { code: string } | { passkey: true };

async function bodyOf(proof: ReauthProof): Promise<ReauthenticateBody> {
  if ('passkey' in proof) return { passkey: await askPasskey('/api/auth/reauthenticate/passkey-options') };
  return proof;
}

/**
 * "Confirm it's you" (POST /api/auth/reauthenticate, issue 38): for the next minutes this session may change
 * what protects the account without being asked again.
 */
export function useReauthenticate() {
  return useMutation({
    mutationFn: async (proof: ReauthProof) =>
      apiClient.post<ReauthenticateResponse>('/api/auth/reauthenticate', await bodyOf(proof)),
  });
}
