import { Trans, useLingui } from '@lingui/react/macro';
import { LIMITS } from '@share-arts/contract';
import type { FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { errorMessage, errorSource } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { useSignup } from '../api/use-signup';
import { serverErrors, signupErrors, type AuthField } from '../lib/auth-errors';
import { useAuthErrors } from '../lib/use-auth-errors';
import styles from './auth-form.module.css';

const FIELDS: readonly AuthField[] = ['fullname', 'email', 'username', 'password', 'confirmPassword'];

export default function SignupPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Signup`);
  const passwordMin = LIMITS.passwordMin;
  const location = useLocation();
  const signupMutation = useSignup();
  const { errors, show, reset, field, formRef } = useAuthErrors();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    const values = {
      fullname: text('fullname').trim(),
      email: text('email').trim(),
      username: text('username').trim(),
      password: text('password'),
      confirmPassword: text('confirmPassword'),
    };
    const problems = signupErrors(values);
    if (Object.keys(problems).length > 0) {
      show(problems);
      return;
    }
    reset();
    const { confirmPassword: _confirm, ...body } = values;
    signupMutation.mutate(body, {
      onError: (error) => show(serverErrors(errorMessage(error), FIELDS, errorSource(error))),
    });
  };

  const busy = signupMutation.isPending;

  return (
    <>
      <div className={styles.intro}>
        <h1 className={styles.title}>
          <Trans>Create your account</Trans>
        </h1>
        <p className={styles.subtitle}>
          <Trans>Join a community of artists and get inspired.</Trans>
        </p>
      </div>
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-busy={busy}>
        <TextField label={t`Fullname`} autoComplete="name" {...field('fullname')} />
        <TextField label={t`Email`} type="email" autoComplete="email" {...field('email')} />
        <TextField
          label={t`Username`}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          hint={t`Letters, digits, _ and . only`}
          {...field('username')}
        />
        <TextField
          label={t`Password`}
          type="password"
          autoComplete="new-password"
          hint={t`At least ${passwordMin} characters`}
          {...field('password')}
        />
        <TextField
          label={t`Re-Enter Password`}
          type="password"
          autoComplete="new-password"
          {...field('confirmPassword')}
        />
        {errors.form && (
          <p className={styles.formError} role="alert">
            {errors.form}
          </p>
        )}
        <div className={styles.actions}>
          <Button type="submit" block disabled={busy}>
            <Trans>Sign up</Trans>
          </Button>
        </div>
      </form>
      <p className={styles.switch}>
        <Trans>
          Already have an account?{' '}
          <Link to={{ pathname: '/login', search: location.search }} state={location.state}>
            Login
          </Link>
        </Trans>
      </p>
    </>
  );
}
