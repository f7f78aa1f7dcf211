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

const EMPTY: Record<Method, string> = {
  password: 'Type the password you sign in with.',
  code: 'Type the 6 digits your authenticator app shows, or one of your recovery codes.',
};

/**
 * "Confirm it's you" (issue 38): the password, or a code from the authenticator app, or a passkey, before a
 * change to what protects the account. Cancel (or Escape) leaves everything as it was.
 */
export function ConfirmItsYouDialog({ onConfirmed, onCancel }: { onConfirmed: () => void; onCancel: () => void }) {
  const status = useTwoFactorStatus();
  const reauth = useReauthenticate();
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
      setProblem(EMPTY[method]);
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
    <Modal title="Confirm it's you" size="sm" onClose={onCancel} busy={busy}>
      <form className={layout.form} onSubmit={onSubmit} noValidate aria-busy={busy}>
        <p className={layout.text}>
          You are changing what protects your account.{' '}
          {method === 'password' ? 'Type your password to go on.' : 'Type a code from your authenticator app to go on.'}{' '}
          You will not be asked again for {SECURITY.reauthMinutes} minutes.
        </p>
        {method === 'password' ? (
          <TextField
            key="password"
            name="proof"
            label="Your password"
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
            label="Code from your authenticator app, or a recovery code"
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
                {method === 'code' ? 'Use your password' : 'Use a code from your app'}
              </Button>
            )}
            {passkeys && (
              <Button variant="secondary" disabled={busy} onClick={() => send({ passkey: true })}>
                Use a passkey
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
            Cancel
          </Button>
          <Button type="submit" aria-disabled={busy || undefined} className={layout.busySubmit}>
            {busy ? 'Confirming…' : 'Confirm'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
