import { TEST_CREDENTIALS, TOASTS } from '@share-arts/contract';
import type { FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { toast } from '../../../ui/toast';
import { useLogin } from '../api/use-login';
import styles from './auth-form.module.css';

export default function LoginPage() {
  useDocumentTitle('Login');
  const location = useLocation();
  const loginMutation = useLogin();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const username = String(data.get('username') ?? '').trim();
    const password = String(data.get('password') ?? '');
    if (!username || !password) {
      toast.error(TOASTS.fieldsMissing);
      return;
    }
    loginMutation.mutate({ username, password });
  };

  const busy = loginMutation.isPending;

  return (
    <>
      <div className={styles.intro}>
        <h1 className={styles.title}>Welcome back</h1>
        <p className={styles.subtitle}>Log in to share your art and see what others made.</p>
      </div>
      <form className={styles.form} onSubmit={onSubmit} noValidate aria-busy={busy}>
        <TextField label="Username" name="username" autoComplete="username" autoCapitalize="none" spellCheck={false} />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" />
        <div className={styles.actions}>
          <Button type="submit" block disabled={busy}>
            Login
          </Button>
          <div className={styles.divider}>or</div>
          <Button
            variant="secondary"
            block
            disabled={busy}
            onClick={() => loginMutation.mutate({ ...TEST_CREDENTIALS })}
          >
            Login with Test Credential
          </Button>
        </div>
      </form>
      <p className={styles.switch}>
        New to Share Arts?{' '}
        <Link to="/signup" state={location.state}>
          Create now
        </Link>
      </p>
    </>
  );
}
