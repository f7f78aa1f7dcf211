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

export const twoFactorKeys = { status: ['two-factor'] as const };

/** What a cancelled or timed-out passkey prompt says (the browser's own error names no reason). */
const PASSKEY_CANCELLED = 'The passkey was not created: the request was cancelled or took too long. Please try again.';

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: twoFactorKeys.status,
    queryFn: ({ signal }) => apiClient.get<TwoFactorStatus>('/api/two-factor', { signal }),
  });
}

/** Every change answers or implies a new status: it is read again. */
function useTwoFactorMutation<TBody, TResult>(mutationFn: (body: TBody) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.status }),
  });
}

export const useTotpSetup = () =>
  useTwoFactorMutation(() => apiClient.post<TotpSetupResponse>('/api/two-factor/totp/setup'));

export const useTotpConfirm = () =>
  useTwoFactorMutation((body: CodeBody) => apiClient.post<RecoveryCodes>('/api/two-factor/totp/confirm', body));

export const useTotpDisable = () =>
  useTwoFactorMutation((body: CodeBody) => apiClient.post<TwoFactorOff>('/api/two-factor/totp/disable', body));

/** Asks the server for options, the browser (or phone) for a new passkey, and registers it. */
export const useAddPasskey = () =>
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
  });

export const useRemovePasskey = () =>
  useTwoFactorMutation((id: string) => apiClient.delete<TwoFactorStatus>(`/api/two-factor/passkeys/${id}`));
