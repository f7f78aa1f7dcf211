import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { ACCOUNT_ERRORS, LIMITS } from '@share-arts/contract';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { useChangePassword } from '../api/use-sessions';
import styles from './password-settings.module.css';

/** Settings' "Change password" (issue 24): every other session is signed out, this one stays. */
export function PasswordSettings() {
  const { t } = useLingui();
  const change = useChangePassword();
  const minimum = LIMITS.passwordMin;
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const problem = change.isError ? errorMessage(change.error) : undefined;
  // A wrong current password is said under its field; anything else under the new one.
  const wrongCurrent = change.error instanceof ApiError && change.error.status === 401;

  function submit(event: FormEvent) {
    event.preventDefault();
    setDone(null);
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: ({ endedSessions }) => {
          setCurrentPassword('');
          setNewPassword('');
          setDone(
            endedSessions === 0
              ? t`Your password is changed. You stay signed in here.`
              : t`${plural(endedSessions, {
                  one: 'Your password is changed. You stay signed in here; one other session was signed out.',
                  other: 'Your password is changed. You stay signed in here; # other sessions were signed out.',
                })}`,
          );
        },
      },
    );
  }

  return (
    <section className={styles.card} aria-labelledby="password-settings-title">
      <h2 id="password-settings-title" className={styles.title}>
        <Trans>Change password</Trans>
      </h2>
      <p className={styles.hint}>
        <Trans>
          Changing it signs out every other device and browser signed in to your account. This one stays signed in.
        </Trans>
      </p>
      <form className={styles.form} onSubmit={submit}>
        <TextField
          label={t`Current password`}
          type="password"
          autoComplete="current-password"
          required
          value={currentPassword}
          readOnly={change.isPending}
          error={wrongCurrent ? (problem ?? ACCOUNT_ERRORS.wrongCurrentPassword) : undefined}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
        <TextField
          label={t`New password`}
          type="password"
          autoComplete="new-password"
          required
          minLength={LIMITS.passwordMin}
          maxLength={LIMITS.passwordMax}
          hint={t`At least ${minimum} characters; a few unrelated words work well.`}
          value={newPassword}
          readOnly={change.isPending}
          error={wrongCurrent ? undefined : problem}
          onChange={(event) => setNewPassword(event.target.value)}
        />
        <div className={styles.row}>
          <Button type="submit" variant="primary" disabled={change.isPending}>
            {change.isPending ? t`Changing…` : t`Change password`}
          </Button>
        </div>
      </form>
      {done && (
        <p role="status" className={styles.ok}>
          {done}
        </p>
      )}
    </section>
  );
}
