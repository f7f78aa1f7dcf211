import { type LoginResponse } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { askPasskey as askPasskeyAt } from '../../../lib/passkey';
import { startSession } from '../../../lib/session';
import { toast } from '../../../ui/toast';
import { toastText } from '../../../lib/spec-toasts';

/** The browser's passkey prompt for a sign-in (the second step's, with its ticket, or a passkey's alone). */
const askPasskey = (ticket?: string) => askPasskeyAt('/api/auth/passkey/options', ticket ? { ticket } : {});

function useSignedIn() {
  const queryClient = useQueryClient();
  return ({ encodedToken, foundUser }: LoginResponse) => {
    startSession(queryClient, encodedToken, foundUser);
    toast.success(toastText('loggedIn'));
  };
}

/** The second step of a log-in with two-factor sign-in on: a code, a recovery code or a passkey. */
export function useSecondFactor(ticket: string) {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: async (proof: { code: string } | { passkey: true }) =>
      apiClient.post<LoginResponse>(
        '/api/auth/login/second-factor',
        'code' in proof ? { ticket, code: proof.code } : { ticket, passkey: await askPasskey(ticket) },
      ),
    onSuccess: signedIn,
  });
}

/** "Sign in with a passkey": no username or password, the device's passkey for this site. */
export function usePasskeySignIn() {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: async () => apiClient.post<LoginResponse>('/api/auth/passkey', { credential: await askPasskey() }),
    onSuccess: signedIn,
  });
}
