import { Trans, useLingui } from '@lingui/react/macro';
import { LIMITS, type User } from '@share-arts/contract';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { useChangeEmail } from '../api/use-change-email';
import { useResendConfirmation } from '../api/use-email-verification';
import { problemOf } from '../lib/reauth';
import { useConfirmedAction } from '../lib/use-confirmed-action';
import styles from './email-settings.module.css';

/**
 * "Change address" (issue 38): the new address, through "Confirm it's you" when the server asks. Cancelled
 * there, the form stays as it was.
 */
function ChangeEmailForm({ onChanged, onCancel }: { onChanged: (message: string) => void; onCancel: () => void }) {
  const { t } = useLingui();
  const { confirmed, dialog } = useConfirmedAction();
  const change = useChangeEmail(confirmed);
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    const address = email.trim();
    if (!address) {
      setProblem(t`Type your new email address.`);
      return;
    }
    setProblem(undefined);
    change.mutate(address, {
      onSuccess: (answer) => onChanged(answer.message),
      onError: (error) => setProblem(problemOf(error)),
    });
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-busy={change.isPending}>
      <TextField
        label={t`New email address`}
        type="email"
        autoComplete="email"
        maxLength={LIMITS.emailMax}
        hint={t`We will mail it a link to confirm it, and tell your current address about the change.`}
        value={email}
        readOnly={change.isPending}
        error={problem}
        // Opened by "Change address": the field is what comes next.
        autoFocus
        onChange={(event) => {
          setEmail(event.target.value);
          setProblem(undefined);
        }}
      />
      <div className={styles.row}>
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? t`Changing…` : t`Change address`}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={change.isPending}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
      {dialog}
    </form>
  );
}

/**
 * Your address and whether it is confirmed (issue 24): until it is, password reset links cannot be sent
 * to it, and "Resend confirmation" mails a new link. "Change address" saves a new one, unconfirmed (issue 38).
 */
export function EmailSettings({ user }: { user: User }) {
  const { t } = useLingui();
  const resend = useResendConfirmation();
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string>();
  const changeButton = useRef<HTMLButtonElement>(null);
  const closedForm = useRef(false);
  // The form closed (changed or cancelled): focus goes back to the button that opened it.
  useEffect(() => {
    if (editing || !closedForm.current) return;
    closedForm.current = false;
    changeButton.current?.focus();
  }, [editing]);
  const closeForm = () => {
    closedForm.current = true;
    setEditing(false);
  };

  if (!user.email) return null;
  return (
    <section className={styles.card} aria-labelledby="email-settings-title">
      <h2 id="email-settings-title" className={styles.title}>
        <Trans>Email address</Trans>
      </h2>
      <p className={styles.address}>
        <span className={styles.email}>{user.email}</span>
        <span className={user.emailVerified ? styles.confirmed : styles.unconfirmed}>
          {user.emailVerified ? t`Confirmed` : t`Unconfirmed`}
        </span>
      </p>
      {user.emailVerified ? (
        <p className={styles.hint}>
          <Trans>If you forget your password, we can mail you a link to choose a new one.</Trans>
        </p>
      ) : (
        <p className={styles.hint}>
          <Trans>
            Please open the link we mailed to this address. Until you do, we cannot send you a link to reset a forgotten
            password.
          </Trans>
        </p>
      )}
      {editing ? (
        <ChangeEmailForm
          onCancel={closeForm}
          onChanged={(message) => {
            setNotice(message);
            resend.reset();
            closeForm();
          }}
        />
      ) : (
        <div className={styles.row}>
          <Button
            ref={changeButton}
            variant="secondary"
            onClick={() => {
              setNotice(undefined);
              setEditing(true);
            }}
          >
            <Trans>Change address</Trans>
          </Button>
          {!user.emailVerified && (
            <Button variant="secondary" disabled={resend.isPending || resend.isSuccess} onClick={() => resend.mutate()}>
              <Trans>Resend confirmation</Trans>
            </Button>
          )}
        </div>
      )}
      {notice && (
        <p role="status" className={styles.ok}>
          {notice}
        </p>
      )}
      {resend.isSuccess && <p role="status">{resend.data.message}</p>}
      {resend.isError && (
        <p role="alert" className={styles.error}>
          {errorMessage(resend.error)}
        </p>
      )}
    </section>
  );
}
