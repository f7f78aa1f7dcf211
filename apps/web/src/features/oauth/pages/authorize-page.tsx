import { Trans, useLingui } from '@lingui/react/macro';
import { APP_NAME } from '@share-arts/contract';
import { useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { signInPath, useCurrentUser } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { BrandMark } from '../../../ui/brand-mark';
import { Button, ButtonLink } from '../../../ui/button';
import { FullPageLoading } from '../../../ui/full-page-status';
import {
  authorizeParamsOf,
  useAuthorizationDecision,
  useAuthorizationPreview,
  type AuthorizationPreview,
} from '../api/use-authorization';
import { scopeWords } from '../lib/scope-words';
import styles from './authorize-page.module.css';

/**
 * /oauth/authorize (issue 45): an app (Ivory, Elk, Tusky…) sends a person here to be let into their account. The
 * link is checked first (a bad client_id or a redirect_uri the app did not register is said here, never sent
 * anywhere); a visitor signs in (password, then two-factor) and comes back; then the consent: the app, what it
 * asks in plain words, Authorize or Deny. The answer goes back to the app's registered address, or (out of band)
 * the code is shown to copy.
 */
export default function AuthorizePage() {
  const { t } = useLingui();
  useDocumentTitle(t`Authorize an app`);
  const location = useLocation();
  const params = authorizeParamsOf(location.search);
  const me = useCurrentUser();
  const preview = useAuthorizationPreview(params);

  if (preview.isPending || me.isPending) return <FullPageLoading />;
  if (preview.isError) {
    return (
      <Shell>
        <h1 className={styles.title}>
          <Trans>This sign-in link does not work</Trans>
        </h1>
        <p role="alert" className={styles.error}>
          {errorMessage(preview.error)}
        </p>
        <p className={styles.hint}>
          <Trans>Nothing was shared with the app. Go back to it and start again.</Trans>
        </p>
      </Shell>
    );
  }
  const { app } = preview.data;
  const appName = app.name;
  if (!me.data) {
    return (
      <Shell>
        <h1 className={styles.title}>
          <Trans>Sign in to continue to {appName}</Trans>
        </h1>
        <p className={styles.hint}>
          <Trans>
            {appName} asks to use your {APP_NAME} account. Sign in first: you will then see what it asks for, and
            choose.
          </Trans>
        </p>
        <ButtonLink to={signInPath(`${location.pathname}${location.search}`)} block>
          <Trans>Sign in</Trans>
        </ButtonLink>
      </Shell>
    );
  }
  return <Consent preview={preview.data} username={me.data.username} search={location.search} />;
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <div className={styles.brand}>
          <BrandMark />
          <span>{APP_NAME}</span>
        </div>
        {children}
      </div>
    </main>
  );
}

function Consent({ preview, username, search }: { preview: AuthorizationPreview; username: string; search: string }) {
  const decision = useAuthorizationDecision(authorizeParamsOf(search));
  const [code, setCode] = useState<string | null>(null);
  const [denied, setDenied] = useState(false);
  const { app, scopes } = preview;
  const appName = app.name;
  const { t } = useLingui();

  const decide = (approve: boolean) =>
    decision.mutate(approve, {
      onSuccess: (answer) => {
        if (answer.redirectUrl) {
          window.location.assign(answer.redirectUrl);
          return;
        }
        if (answer.code) setCode(answer.code);
        else setDenied(true);
      },
    });

  if (code) {
    return (
      <Shell>
        <h1 className={styles.title}>
          <Trans>Copy this code into {appName}</Trans>
        </h1>
        <p className={styles.hint}>
          <Trans>It works once, in the next 10 minutes.</Trans>
        </p>
        <input
          className={styles.code}
          readOnly
          value={code}
          aria-label={t`Authorization code`}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button block onClick={() => void navigator.clipboard?.writeText(code)}>
          <Trans>Copy the code</Trans>
        </Button>
      </Shell>
    );
  }
  if (denied) {
    return (
      <Shell>
        <h1 className={styles.title}>
          <Trans>{appName} was not let in</Trans>
        </h1>
        <p className={styles.hint}>
          <Trans>You can close this page.</Trans>
        </p>
      </Shell>
    );
  }
  const leaving = decision.isPending || decision.isSuccess;
  return (
    <Shell>
      <h1 className={styles.title}>
        <Trans>
          <span className={styles.appName}>{appName}</span> wants to use your account
        </Trans>
      </h1>
      {app.website && (
        <p className={styles.website}>
          <a href={app.website} target="_blank" rel="noopener noreferrer nofollow">
            {app.website.replace(/^https?:\/\//, '')}
          </a>
        </p>
      )}
      <p className={styles.hint}>
        <Trans>
          Signed in as <strong>@{username}</strong>. If you authorize it, {appName} may:
        </Trans>
      </p>
      <ul className={styles.scopes} aria-label={t`What it asks for`}>
        {scopes.map((scope) => (
          <li key={scope} className={styles.scope}>
            <span>{scopeWords(scope)}</span>
            <code className={styles.scopeName}>{scope}</code>
          </li>
        ))}
      </ul>
      <p className={styles.hint}>
        <Trans>
          It never sees your password. You can end its access at any time in Settings, under “Where you’re signed in”.
        </Trans>
      </p>
      {decision.isError && (
        <p role="alert" className={styles.error}>
          {errorMessage(decision.error)}
        </p>
      )}
      <div className={styles.actions}>
        <Button block disabled={leaving} onClick={() => decide(true)}>
          <Trans>Authorize</Trans>
        </Button>
        <Button variant="secondary" block disabled={leaving} onClick={() => decide(false)}>
          <Trans>Deny</Trans>
        </Button>
      </div>
    </Shell>
  );
}
