import { Trans, useLingui } from '@lingui/react/macro';
import type { SecondFactorNeeded } from '@share-arts/contract';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { useSecondFactor } from '../api/use-second-factor';
import styles from '../pages/auth-form.module.css';

/**
 * The log-in's second step (issue 24): the 6 digits of the authenticator app, a recovery code instead, or the
 * account's passkey. A wrong code keeps the step open; an expired ticket sends the person back to the password.
 */
export function SecondFactorStep({ answer, onBack }: { answer: SecondFactorNeeded; onBack: () => void }) {
  const { t } = useLingui();
  const [recovery, setRecovery] = useState(false);
  const [problem, setProblem] = useState<string>();
  const finish = useSecondFactor(answer.ticket);
  const busy = finish.isPending;
  const onError = (error: unknown) => setProblem(errorMessage(error));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '').trim();
    if (!code) {
      setProblem(recovery ? t`Type one of your recovery codes.` : t`Type the 6 digits your authenticator app shows.`);
      return;
    }
    setProblem(undefined);
    finish.mutate({ code }, { onError });
  };

  return (
    <>
      <div className={styles.intro}>
        <h1 className={styles.title}>
          <Trans>Two-factor sign-in</Trans>
        </h1>
        <p className={styles.subtitle}>
          {recovery
            ? t`Type one of the recovery codes you saved when you turned two-factor sign-in on. Each works once.`
            : t`Open your authenticator app and type the 6-digit code it shows for Share Arts.`}
        </p>
      </div>
      <form className={styles.form} onSubmit={onSubmit} noValidate aria-busy={busy}>
        <TextField
          key={recovery ? 'recovery' : 'totp'}
          name="code"
          label={recovery ? t`Recovery code` : t`Authentication code`}
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          autoCapitalize="none"
          spellCheck={false}
          maxLength={recovery ? 20 : 10}
          autoFocus
          error={problem}
        />
        <div className={styles.actions}>
          <Button type="submit" block disabled={busy}>
            <Trans>Verify</Trans>
          </Button>
          <Button variant="secondary" block disabled={busy} onClick={() => setRecovery(!recovery)}>
            {recovery ? t`Use your authenticator app` : t`Use a recovery code`}
          </Button>
          {answer.methods.includes('passkey') && (
            <Button
              variant="secondary"
              block
              disabled={busy}
              onClick={() => {
                setProblem(undefined);
                finish.mutate({ passkey: true }, { onError });
              }}
            >
              <Trans>Use a passkey</Trans>
            </Button>
          )}
          <Button variant="secondary" block disabled={busy} onClick={onBack}>
            <Trans>Back to the password</Trans>
          </Button>
        </div>
      </form>
    </>
  );
}
