import { Trans, useLingui } from '@lingui/react/macro';
import { APP_NAME } from '@share-arts/contract';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useUndoEmailChange } from '../api/use-email-verification';
// The same card as the confirmation link's page.
import styles from './verify-email-page.module.css';

/**
 * The page of the link mailed to the old address after a change (/undo-email?token=…, issue 38): puts the
 * address back once, and says so. Every session of the account is signed out then, this one too.
 */
export default function UndoEmailPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Undo the change of your email address`);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const undo = useUndoEmailChange();
  const sent = useRef(false);

  useEffect(() => {
    // Once per page, also under StrictMode's second effect: a link works only once.
    if (!token || sent.current) return;
    sent.current = true;
    undo.mutate(token);
  }, [token, undo]);

  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <h1 className={styles.title}>
          <Trans>{APP_NAME}: undo the change of your email address</Trans>
        </h1>
        {!token ? (
          <p role="alert">
            <Trans>This page needs the link from the email. Please open the link again.</Trans>
          </p>
        ) : undo.isSuccess ? (
          <p role="status">{undo.data.message}</p>
        ) : undo.isError ? (
          <p role="alert">{errorMessage(undo.error)}</p>
        ) : (
          <p role="status">
            <Trans>Putting your address back…</Trans>
          </p>
        )}
        <Link to="/login">
          <Trans>Log in</Trans>
        </Link>
      </div>
    </main>
  );
}
