import { Trans, useLingui } from '@lingui/react/macro';
import { APP_NAME } from '@share-arts/contract';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useVerifyEmail } from '../api/use-email-verification';
import styles from './verify-email-page.module.css';

/** The page of the mailed confirmation link (/verify-email?token=…): confirms once, and says so. */
export default function VerifyEmailPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Confirm your email address`);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useVerifyEmail();
  const { data: user } = useCurrentUser();
  const sent = useRef(false);

  useEffect(() => {
    // Once per page, also under StrictMode's second effect: a link works only once.
    if (!token || sent.current) return;
    sent.current = true;
    verify.mutate(token);
  }, [token, verify]);

  const next = user
    ? { to: '/settings/account', label: t`Go to your account settings` }
    : { to: '/login', label: t`Log in` };
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <h1 className={styles.title}>
          <Trans>{APP_NAME}: confirm your email address</Trans>
        </h1>
        {!token ? (
          <p role="alert">
            <Trans>This page needs the link from the email. Please open the link again.</Trans>
          </p>
        ) : verify.isSuccess ? (
          <p role="status">{verify.data.message}</p>
        ) : verify.isError ? (
          <p role="alert">{errorMessage(verify.error)}</p>
        ) : (
          <p role="status">
            <Trans>Confirming your address…</Trans>
          </p>
        )}
        <Link to={next.to}>{next.label}</Link>
      </div>
    </main>
  );
}
