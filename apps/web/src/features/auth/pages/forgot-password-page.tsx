import { Trans, useLingui } from '@lingui/react/macro';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { useForgotPassword } from '../api/use-password-reset';
import styles from './auth-form.module.css';

/** Asks for the email address or username, then shows the server's one sentence, whatever the account. */
export default function ForgotPasswordPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Forgot password`);
  const forgot = useForgotPassword();
  const [problem, setProblem] = useState<string>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const login = String(new FormData(event.currentTarget).get('login') ?? '').trim();
    if (!login) {
      setProblem(t`Please enter the email address or username of your account.`);
      return;
    }
    setProblem(undefined);
    forgot.mutate({ login }, { onError: (error) => setProblem(errorMessage(error)) });
  };

  return (
    <>
      <div className={styles.intro}>
        <h1 className={styles.title}>
          <Trans>Forgot your password?</Trans>
        </h1>
        <p className={styles.subtitle}>
          <Trans>We will mail you a link to choose a new one.</Trans>
        </p>
      </div>
      {forgot.isSuccess ? (
        <div className={styles.form}>
          <p role="status">{forgot.data.message}</p>
        </div>
      ) : (
        <form className={styles.form} onSubmit={onSubmit} noValidate aria-busy={forgot.isPending}>
          <TextField
            label={t`Email or username`}
            name="login"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            error={problem}
            onInput={() => setProblem(undefined)}
          />
          <div className={styles.actions}>
            <Button type="submit" block disabled={forgot.isPending}>
              <Trans>Send me a link</Trans>
            </Button>
          </div>
        </form>
      )}
      <p className={styles.switch}>
        <Trans>
          Remembered it? <Link to="/login">Log in</Link>
        </Trans>
      </p>
    </>
  );
}
