import type { PasskeyOptions } from '@share-arts/contract';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { apiClient } from './api-client';

/** What a cancelled or timed-out passkey prompt says (the browser's own error names no reason). */
export const PASSKEY_CANCELLED = 'The passkey request was cancelled or took too long. Please try again.';

/** A sentence for the browser's refusal: cancelled or timed out, or passkeys unusable on this address. */
export function passkeyProblem(error: unknown): string {
  if (error instanceof Error && error.name === 'SecurityError') {
    return 'Passkeys work only when Share Arts is opened by its name, not by an IP address.';
  }
  return PASSKEY_CANCELLED;
}

/**
 * The browser's passkey prompt for the options the server answers at `optionsPath` (a sign-in's, or a
 * signed-in "Confirm it's you"); a refusal becomes a sentence the page can show.
 */
export async function askPasskey(optionsPath: string, body?: unknown) {
  const options = await apiClient.post<PasskeyOptions>(optionsPath, body);
  try {
    return await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
  } catch (error) {
    throw new Error(passkeyProblem(error));
  }
}
