import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { SessionInfo } from '@share-arts/contract';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { useEndOtherSessions, useEndSession, useSessions } from '../api/use-sessions';
import { formatMoment as when } from '../lib/moment';
import styles from './sessions-settings.module.css';

/** Settings' "Where you're signed in" (issue 24): every session of the account, and ending them. */
export function SessionsSettings() {
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const others = (sessions.data ?? []).filter((session) => !session.current);
  const { t } = useLingui();

  return (
    <section className={styles.card} aria-labelledby="sessions-settings-title">
      <h2 id="sessions-settings-title" className={styles.title}>
        <Trans>Where you&apos;re signed in</Trans>
      </h2>
      <p className={styles.hint}>
        <Trans>
          Every device and browser signed in to your account. If you do not recognise one, or lost a phone, end it: it
          is signed out at once. Places are the network each one signed in from, approximately.
        </Trans>
      </p>
      {sessions.isPending && (
        <p className={styles.hint}>
          <Trans>Loading your sessions…</Trans>
        </p>
      )}
      {sessions.isError && (
        <p role="alert" className={styles.error}>
          {errorMessage(sessions.error)}
        </p>
      )}
      {sessions.data && (
        <ul className={styles.list} aria-label={t`Your sessions`}>
          {/* This device first, then the others as the server orders them (the most recently used first). */}
          {[...sessions.data]
            .sort((a, b) => Number(b.current) - Number(a.current))
            .map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                busy={endOne.isPending && endOne.variables === session.id}
                onEnd={() =>
                  endOne.mutate(session.id, {
                    onSuccess: () => {
                      const device = session.device;
                      setNotice(t`${device} is signed out.`);
                    },
                    onError: (error) => setNotice(errorMessage(error)),
                  })
                }
              />
            ))}
        </ul>
      )}
      {others.length > 0 && (
        <div className={styles.row}>
          <Button variant="secondary" onClick={() => setConfirming(true)}>
            <Trans>End all other sessions</Trans>
          </Button>
        </div>
      )}
      {notice && (
        <p role="status" className={styles.hint}>
          {notice}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title={t`End all other sessions?`}
          confirmLabel={t`End them`}
          busyLabel={t`Ending…`}
          busy={endOthers.isPending}
          stretchActionsWhenNarrow
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            endOthers.mutate(undefined, {
              onSuccess: ({ ended }) =>
                setNotice(
                  t`${plural(ended, { one: 'One other session is signed out.', other: '# other sessions are signed out.' })}`,
                ),
              onError: (error) => setNotice(errorMessage(error)),
              onSettled: () => setConfirming(false),
            })
          }
        >
          <Trans>
            Every other device and browser signed in to your account is signed out at once. This one stays signed in.
          </Trans>
        </ConfirmDialog>
      )}
    </section>
  );
}

function SessionRow({ session, busy, onEnd }: { session: SessionInfo; busy: boolean; onEnd: () => void }) {
  const { t } = useLingui();
  const device = session.device;
  const scopes = session.app?.scopes.join(', ');
  const signedIn = when(session.createdAt);
  const lastActive = when(session.lastUsedAt);
  return (
    <li className={styles.item}>
      <div className={styles.about}>
        <p className={styles.device}>
          {session.device}
          {session.current && (
            <span className={styles.badge}>
              <Trans>This device</Trans>
            </span>
          )}
          {session.app && (
            <span className={styles.badge}>
              <Trans>App</Trans>
            </span>
          )}
        </p>
        {/* An app signed in through OAuth (issue 45): what it may do; ending it ends its access at once. */}
        {session.app && (
          <p className={styles.meta}>
            <Trans>May: {scopes}</Trans>
          </p>
        )}
        <p className={styles.meta}>{session.place}</p>
        <p className={styles.meta}>
          <Trans>
            Signed in {signedIn} · Last active {lastActive}
          </Trans>
        </p>
      </div>
      {!session.current && (
        <Button variant="secondary" disabled={busy} aria-label={t`End the session of ${device}`} onClick={onEnd}>
          {busy ? t`Ending…` : t`End`}
        </Button>
      )}
    </li>
  );
}
