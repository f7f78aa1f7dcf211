import { TEST_CREDENTIALS, type LoginAnswer, type SecondFactorNeeded } from '@share-arts/contract';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { useLogin } from '../api/use-login';
import { usePasskeySignIn } from '../api/use-second-factor';
import { SecondFactorStep } from '../components/second-factor-step';
import { loginErrors, serverErrors, type AuthField } from '../lib/auth-errors';
import { useAuthErrors } from '../lib/use-auth-errors';
import styles from './auth-form.module.css';

const FIELDS: readonly AuthField[] = ['username', 'password'];

export default function LoginPage() {
  useDocumentTitle('Login');
  const location = useLocation();
  const loginMutation = useLogin();
  const { errors, show, reset, field, formRef } = useAuthErrors();
  const passkeySignIn = usePasskeySignIn();
  // The right password of an account with two-factor sign-in on: the second step's ticket (issue 24).
  const [secondStep, setSecondStep] = useState<SecondFactorNeeded>();
  const toSecondStep = (answer: LoginAnswer) => {
    if ('secondFactorRequired' in answer) setSecondStep(answer);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const values = {
      username: String(data.get('username') ?? '').trim(),
      password: String(data.get('password') ?? ''),
    };
    const problems = loginErrors(values);
    if (Object.keys(problems).length > 0) {
      show(problems);
      return;
    }
    reset();
    loginMutation.mutate(values, {
      onSuccess: toSecondStep,
      onError: (error) => show(serverErrors(errorMessage(error), FIELDS)),
    });
  };

  const logInAsTestUser = () => {
    reset();
    // Nothing was typed: whatever goes wrong is about the form, not a field.
    loginMutation.mutate(
      { ...TEST_CREDENTIALS },
      { onSuccess: toSecondStep, onError: (error) => show({ form: errorMessage(error) }) },
    );
  };

  const signInWithPasskey = () => {
    reset();
    passkeySignIn.mutate(undefined, { onError: (error) => show({ form: errorMessage(error) }) });
  };

  const busy = loginMutation.isPending || passkeySignIn.isPending;

  if (secondStep) return <SecondFactorStep answer={secondStep} onBack={() => setSecondStep(undefined)} />;

  return (
    <>
      <div className={styles.intro}>
        <h1 className={styles.title}>Welcome back</h1>
        <p className={styles.subtitle}>Log in to share your art and see what others made.</p>
      </div>
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-busy={busy}>
        <TextField
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          {...field('username')}
        />
        <TextField label="Password" type="password" autoComplete="current-password" {...field('password')} />
        <Link to="/forgot-password" className={styles.forgot}>
          Forgot password?
        </Link>
        {errors.form && (
          <p className={styles.formError} role="alert">
            {errors.form}
          </p>
        )}
        <div className={styles.actions}>
          <Button type="submit" block disabled={busy}>
            Login
          </Button>
          <div className={styles.divider}>or</div>
          <Button variant="secondary" block disabled={busy} onClick={logInAsTestUser}>
            Login with Test Credential
          </Button>
          <Button variant="secondary" block disabled={busy} onClick={signInWithPasskey}>
            Sign in with a passkey
          </Button>
        </div>
      </form>
      <p className={styles.switch}>
        New to Share Arts?{' '}
        <Link to={{ pathname: '/signup', search: location.search }} state={location.state}>
          Create now
        </Link>
      </p>
    </>
  );
}
