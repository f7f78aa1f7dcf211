import { LIMITS, TOASTS } from '@share-arts/contract';
import type { FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { toast } from '../../../ui/toast';
import { useSignup } from '../api/use-signup';
import styles from './auth-form.module.css';

export default function SignupPage() {
  useDocumentTitle('Signup');
  const location = useLocation();
  const signupMutation = useSignup();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    const fullname = text('fullname').trim();
    const email = text('email').trim();
    const username = text('username').trim();
    const password = text('password');
    const confirmPassword = text('confirmPassword');

    if (!fullname || !email || !username || !password || !confirmPassword) {
      toast.error(TOASTS.fieldsMissing);
      return;
    }
    if (password !== confirmPassword) {
      toast.error(TOASTS.passwordsDiffer);
      return;
    }
    signupMutation.mutate({ fullname, email, username, password });
  };

  const busy = signupMutation.isPending;

  return (
    <>
      <div className={styles.intro}>
        <h1 className={styles.title}>Create your account</h1>
        <p className={styles.subtitle}>Join a community of artists and get inspired.</p>
      </div>
      <form className={styles.form} onSubmit={onSubmit} noValidate aria-busy={busy}>
        <TextField label="Fullname" name="fullname" autoComplete="name" />
        <TextField label="Email" name="email" type="email" autoComplete="email" />
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          hint="Letters, digits, _ and . only"
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${LIMITS.passwordMin} characters`}
        />
        <TextField label="Re-Enter Password" name="confirmPassword" type="password" autoComplete="new-password" />
        <div className={styles.actions}>
          <Button type="submit" block disabled={busy}>
            Sign up
          </Button>
        </div>
      </form>
      <p className={styles.switch}>
        Already have an account?{' '}
        <Link to="/login" state={location.state}>
          Login
        </Link>
      </p>
    </>
  );
}
