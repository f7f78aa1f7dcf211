import { TOASTS, type LoginResponse, type PasskeyOptions } from '@share-arts/contract';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { startSession } from '../../../lib/session';
import { toast } from '../../../ui/toast';

/** What a cancelled or timed-out passkey prompt says (the browser's own error names no reason). */
export const PASSKEY_CANCELLED = 'The passkey request was cancelled or took too long. Please try again.';

/** A sentence for the browser's refusal: cancelled or timed out, or passkeys unusable on this address. */
function passkeyProblem(error: unknown): string {
  if (error instanceof Error && error.name === 'SecurityError') {
    return 'Passkeys work only when Share Arts is opened by its name, not by an IP address.';
  }
  return PASSKEY_CANCELLED;
}

/** The browser's passkey prompt for the server's options; a refusal becomes a sentence the page can show. */
async function askPasskey(ticket?: string) {
  const options = await apiClient.post<PasskeyOptions>('/api/auth/passkey/options', ticket ? { ticket } : {});
  try {
    return await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
  } catch (error) {
    throw new Error(passkeyProblem(error));
  }
}

function useSignedIn() {
  const queryClient = useQueryClient();
  return ({ encodedToken, foundUser }: LoginResponse) => {
    startSession(queryClient, encodedToken, foundUser);
    toast.success(TOASTS.loggedIn);
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
