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

  return (
    <section className={styles.card} aria-labelledby="sessions-settings-title">
      <h2 id="sessions-settings-title" className={styles.title}>
        Where you&apos;re signed in
      </h2>
      <p className={styles.hint}>
        Every device and browser signed in to your account. If you do not recognise one, or lost a phone, end it: it is
        signed out at once. Places are the network each one signed in from, approximately.
      </p>
      {sessions.isPending && <p className={styles.hint}>Loading your sessions…</p>}
      {sessions.isError && (
        <p role="alert" className={styles.error}>
          {errorMessage(sessions.error)}
        </p>
      )}
      {sessions.data && (
        <ul className={styles.list} aria-label="Your sessions">
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
                    onSuccess: () => setNotice(`${session.device} is signed out.`),
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
            End all other sessions
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
          title="End all other sessions?"
          confirmLabel="End them"
          busyLabel="Ending…"
          busy={endOthers.isPending}
          stretchActionsWhenNarrow
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            endOthers.mutate(undefined, {
              onSuccess: ({ ended }) =>
                setNotice(ended === 1 ? 'One other session is signed out.' : `${ended} other sessions are signed out.`),
              onError: (error) => setNotice(errorMessage(error)),
              onSettled: () => setConfirming(false),
            })
          }
        >
          Every other device and browser signed in to your account is signed out at once. This one stays signed in.
        </ConfirmDialog>
      )}
    </section>
  );
}

function SessionRow({ session, busy, onEnd }: { session: SessionInfo; busy: boolean; onEnd: () => void }) {
  return (
    <li className={styles.item}>
      <div className={styles.about}>
        <p className={styles.device}>
          {session.device}
          {session.current && <span className={styles.badge}>This device</span>}
        </p>
        <p className={styles.meta}>{session.place}</p>
        <p className={styles.meta}>
          Signed in {when(session.createdAt)} · Last active {when(session.lastUsedAt)}
        </p>
      </div>
      {!session.current && (
        <Button variant="secondary" disabled={busy} aria-label={`End the session of ${session.device}`} onClick={onEnd}>
          {busy ? 'Ending…' : 'End'}
        </Button>
      )}
    </li>
  );
}
