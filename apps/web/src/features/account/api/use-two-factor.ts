import type {
  CodeBody,
  Passkey,
  PasskeyOptions,
  RecoveryCodes,
  TotpSetupResponse,
  TwoFactorOff,
  TwoFactorStatus,
} from '@share-arts/contract';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import type { Confirmed } from '../lib/reauth';
import { securityLogKey } from './use-security-log';

export const twoFactorKeys = { status: ['two-factor'] as const };

/** A call made as it is, for the changes that need no "Confirm it's you" (turning the app off asks a code). */
const direct: Confirmed = (call) => call();

/** What a cancelled or timed-out passkey prompt says (the browser's own error names no reason). */
const PASSKEY_CANCELLED = 'The passkey was not created: the request was cancelled or took too long. Please try again.';

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: twoFactorKeys.status,
    queryFn: ({ signal }) => apiClient.get<TwoFactorStatus>('/api/two-factor', { signal }),
  });
}

/**
 * Every change answers or implies a new status, and may be a new line of the security log: both are read
 * again. Set-up and passkeys go through `confirmed` ("Confirm it's you" when the server asks, issue 38).
 */
function useTwoFactorMutation<TBody, TResult>(
  request: (body: TBody) => Promise<TResult>,
  confirmed: Confirmed = direct,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TBody) => confirmed(() => request(body)),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: twoFactorKeys.status }),
        queryClient.invalidateQueries({ queryKey: securityLogKey }),
      ]),
  });
}

export const useTotpSetup = (confirmed: Confirmed) =>
  useTwoFactorMutation(() => apiClient.post<TotpSetupResponse>('/api/two-factor/totp/setup'), confirmed);

export const useTotpConfirm = (confirmed: Confirmed) =>
  useTwoFactorMutation(
    (body: CodeBody) => apiClient.post<RecoveryCodes>('/api/two-factor/totp/confirm', body),
    confirmed,
  );

export const useTotpDisable = () =>
  useTwoFactorMutation((body: CodeBody) => apiClient.post<TwoFactorOff>('/api/two-factor/totp/disable', body));

/**
 * Asks the server for options, the browser (or phone) for a new passkey, and registers it. After "Confirm it's
 * you" all of it starts again: the options' challenge is single-use.
 */
export const useAddPasskey = (confirmed: Confirmed) =>
  useTwoFactorMutation(async (name: string) => {
    const options = await apiClient.post<PasskeyOptions>('/api/two-factor/passkeys/options');
    let credential;
    try {
      credential = await startRegistration({
        optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
      });
    } catch {
      throw new Error(PASSKEY_CANCELLED);
    }
    return apiClient.post<Passkey>('/api/two-factor/passkeys', { credential, ...(name ? { name } : {}) });
  }, confirmed);

export const useRemovePasskey = (confirmed: Confirmed) =>
  useTwoFactorMutation((id: string) => apiClient.delete<TwoFactorStatus>(`/api/two-factor/passkeys/${id}`), confirmed);
