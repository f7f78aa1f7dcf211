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
  useDocumentTitle('Forgot password');
  const forgot = useForgotPassword();
  const [problem, setProblem] = useState<string>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const login = String(new FormData(event.currentTarget).get('login') ?? '').trim();
    if (!login) {
      setProblem('Please enter the email address or username of your account.');
      return;
    }
    setProblem(undefined);
    forgot.mutate({ login }, { onError: (error) => setProblem(errorMessage(error)) });
  };

  return (
    <>
      <div className={styles.intro}>
        <h1 className={styles.title}>Forgot your password?</h1>
        <p className={styles.subtitle}>We will mail you a link to choose a new one.</p>
      </div>
      {forgot.isSuccess ? (
        <div className={styles.form}>
          <p role="status">{forgot.data.message}</p>
        </div>
      ) : (
        <form className={styles.form} onSubmit={onSubmit} noValidate aria-busy={forgot.isPending}>
          <TextField
            label="Email or username"
            name="login"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            error={problem}
            onInput={() => setProblem(undefined)}
          />
          <div className={styles.actions}>
            <Button type="submit" block disabled={forgot.isPending}>
              Send me a link
            </Button>
          </div>
        </form>
      )}
      <p className={styles.switch}>
        Remembered it? <Link to="/login">Log in</Link>
      </p>
    </>
  );
}
