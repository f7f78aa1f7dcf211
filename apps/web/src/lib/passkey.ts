import { t } from '@lingui/core/macro';
import type { PasskeyOptions } from '@share-arts/contract';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { apiClient } from './api-client';

/** A sentence for the browser's refusal: cancelled or timed out, or passkeys unusable on this address. */
export function passkeyProblem(error: unknown): string {
  if (error instanceof Error && error.name === 'SecurityError') {
    return t`Passkeys work only when Share Arts is opened by its name, not by an IP address.`;
  }
  // What a cancelled or timed-out prompt says (the browser's own error names no reason).
  return t`The passkey request was cancelled or took too long. Please try again.`;
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
