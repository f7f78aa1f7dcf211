import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { SECURITY } from '@share-arts/contract';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import layout from '../../../ui/dialog-layout.module.css';
import { useReauthenticate, type ReauthProof } from '../api/use-reauthenticate';
import { useTwoFactorStatus } from '../api/use-two-factor';
import styles from './confirm-its-you-dialog.module.css';

type Method = 'password' | 'code';

/** Said when the field is empty, in the current language. */
const emptyProblem = (method: Method): string =>
  method === 'password'
    ? t`Type the password you sign in with.`
    : t`Type the 6 digits your authenticator app shows, or one of your recovery codes.`;

/**
 * "Confirm it's you" (issue 38): the password, or a code from the authenticator app, or a passkey, before a
 * change to what protects the account. Cancel (or Escape) leaves everything as it was.
 */
export function ConfirmItsYouDialog({ onConfirmed, onCancel }: { onConfirmed: () => void; onCancel: () => void }) {
  const { t } = useLingui();
  const status = useTwoFactorStatus();
  const reauth = useReauthenticate();
  const minutes = SECURITY.reauthMinutes;
  const [method, setMethod] = useState<Method>('password');
  // After a switch the new field takes focus; on opening, the dialog puts it there itself.
  const [switched, setSwitched] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [passkeyProblem, setPasskeyProblem] = useState<string>();
  const busy = reauth.isPending || reauth.isSuccess;
  const totp = status.data?.totp ?? false;
  const passkeys = (status.data?.passkeys.length ?? 0) > 0;

  const send = (proof: ReauthProof) => {
    setProblem(undefined);
    setPasskeyProblem(undefined);
    reauth.mutate(proof, {
      onSuccess: onConfirmed,
      onError: (error) => ('passkey' in proof ? setPasskeyProblem : setProblem)(errorMessage(error)),
    });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // React events cross portals: the form of the page that opened the dialog must not submit too.
    event.stopPropagation();
    if (busy) return;
    const value = String(new FormData(event.currentTarget).get('proof') ?? '');
    if (!value.trim()) {
      setProblem(emptyProblem(method));
      return;
    }
    send(method === 'password' ? { password: value } : { code: value.trim() });
  };

  const switchTo = (next: Method) => {
    setMethod(next);
    setSwitched(true);
    setProblem(undefined);
  };

  return (
    <Modal title={t`Confirm it's you`} size="sm" onClose={onCancel} busy={busy}>
      <form className={layout.form} onSubmit={onSubmit} noValidate aria-busy={busy}>
        <p className={layout.text}>
          {method === 'password' ? (
            <Trans>
              You are changing what protects your account. Type your password to go on. You will not be asked again for{' '}
              {minutes} minutes.
            </Trans>
          ) : (
            <Trans>
              You are changing what protects your account. Type a code from your authenticator app to go on. You will
              not be asked again for {minutes} minutes.
            </Trans>
          )}
        </p>
        {method === 'password' ? (
          <TextField
            key="password"
            name="proof"
            label={t`Your password`}
            type="password"
            autoComplete="current-password"
            readOnly={busy}
            error={problem}
            autoFocus={switched}
            data-autofocus
            onChange={() => setProblem(undefined)}
          />
        ) : (
          <TextField
            key="code"
            name="proof"
            label={t`Code from your authenticator app, or a recovery code`}
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={20}
            readOnly={busy}
            error={problem}
            autoFocus={switched}
            data-autofocus
            onChange={() => setProblem(undefined)}
          />
        )}
        {(totp || passkeys) && (
          <div className={styles.others}>
            {totp && (
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() => switchTo(method === 'code' ? 'password' : 'code')}
              >
                {method === 'code' ? t`Use your password` : t`Use a code from your app`}
              </Button>
            )}
            {passkeys && (
              <Button variant="secondary" disabled={busy} onClick={() => send({ passkey: true })}>
                <Trans>Use a passkey</Trans>
              </Button>
            )}
          </div>
        )}
        {passkeyProblem && (
          <p role="alert" className={styles.error}>
            {passkeyProblem}
          </p>
        )}
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" aria-disabled={busy || undefined} className={layout.busySubmit}>
            {busy ? t`Confirming…` : t`Confirm`}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
