import { Trans, useLingui } from '@lingui/react/macro';
import { TEST_CREDENTIALS, type LoginAnswer, type SecondFactorNeeded } from '@share-arts/contract';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { errorMessage, errorSource } from '../../../lib/api-client';
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
  const { t } = useLingui();
  useDocumentTitle(t`Login`);
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
      onError: (error) => show(serverErrors(errorMessage(error), FIELDS, errorSource(error))),
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
        <h1 className={styles.title}>
          <Trans>Welcome back</Trans>
        </h1>
        <p className={styles.subtitle}>
          <Trans>Log in to share your art and see what others made.</Trans>
        </p>
      </div>
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-busy={busy}>
        <TextField
          label={t`Username`}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          {...field('username')}
        />
        <TextField label={t`Password`} type="password" autoComplete="current-password" {...field('password')} />
        <Link to="/forgot-password" className={styles.forgot}>
          <Trans>Forgot password?</Trans>
        </Link>
        {errors.form && (
          <p className={styles.formError} role="alert">
            {errors.form}
          </p>
        )}
        <div className={styles.actions}>
          <Button type="submit" block disabled={busy}>
            <Trans>Login</Trans>
          </Button>
          <div className={styles.divider}>
            <Trans>or</Trans>
          </div>
          <Button variant="secondary" block disabled={busy} onClick={logInAsTestUser}>
            <Trans>Login with Test Credential</Trans>
          </Button>
          <Button variant="secondary" block disabled={busy} onClick={signInWithPasskey}>
            <Trans>Sign in with a passkey</Trans>
          </Button>
        </div>
      </form>
      <p className={styles.switch}>
        <Trans>
          New to Share Arts?{' '}
          <Link to={{ pathname: '/signup', search: location.search }} state={location.state}>
            Create now
          </Link>
        </Trans>
      </p>
    </>
  );
}
