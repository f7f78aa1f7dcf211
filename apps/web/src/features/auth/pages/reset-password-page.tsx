import { Trans, useLingui } from '@lingui/react/macro';
import { LIMITS } from '@share-arts/contract';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage, errorSource } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { useResetPassword } from '../api/use-password-reset';
import styles from './auth-form.module.css';

type Problems = { password?: string; confirmPassword?: string; form?: string };

/** The page of the mailed link (/reset-password?token=…): the new password twice, then "log in". */
export default function ResetPasswordPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Choose a new password`);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  const [problems, setProblems] = useState<Problems>({});
  // A refusal about the link itself (expired, used, unknown) offers a new one: known by the server's English.
  const [linkProblem, setLinkProblem] = useState(false);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get('password') ?? '');
    const confirmPassword = String(data.get('confirmPassword') ?? '');
    const found: Problems = {};
    if (password.length < LIMITS.passwordMin) {
      const passwordMin = LIMITS.passwordMin;
      found.password = t`Please choose a password of at least ${passwordMin} characters.`;
    } else if (password !== confirmPassword) {
      found.confirmPassword = t`The two passwords are not the same: please type the new password again.`;
    }
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    reset.mutate(
      { token, password },
      {
        onError: (error) => {
          setProblems({ form: errorMessage(error) });
          setLinkProblem(errorSource(error).includes('link'));
        },
      },
    );
  };

  return (
    <>
      <div className={styles.intro}>
        <h1 className={styles.title}>
          <Trans>Choose a new password</Trans>
        </h1>
        <p className={styles.subtitle}>
          <Trans>Every device signed in to your account will be signed out.</Trans>
        </p>
      </div>
      {!token ? (
        <div className={styles.form}>
          <p role="alert">
            <Trans>
              This page needs the link from the email. Please open the link again, or{' '}
              <Link to="/forgot-password">ask for a new one</Link>.
            </Trans>
          </p>
        </div>
      ) : reset.isSuccess ? (
        <div className={styles.form}>
          <p role="status">{reset.data.message}</p>
          <Link to="/login">
            <Trans>Log in</Trans>
          </Link>
        </div>
      ) : (
        <form className={styles.form} onSubmit={onSubmit} noValidate aria-busy={reset.isPending}>
          <TextField
            label={t`New password`}
            name="password"
            type="password"
            autoComplete="new-password"
            error={problems.password}
          />
          <TextField
            label={t`New password, again`}
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            error={problems.confirmPassword}
          />
          {problems.form && (
            <p className={styles.formError} role="alert">
              {problems.form}{' '}
              {linkProblem && (
                <Link to="/forgot-password">
                  <Trans>Ask for a new link</Trans>
                </Link>
              )}
            </p>
          )}
          <div className={styles.actions}>
            <Button type="submit" block disabled={reset.isPending}>
              <Trans>Set new password</Trans>
            </Button>
          </div>
        </form>
      )}
    </>
  );
}
