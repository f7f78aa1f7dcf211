import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { SecurityEvent } from '@share-arts/contract';
import { errorMessage } from '../../../lib/api-client';
import { useSecurityLog } from '../api/use-security-log';
import { formatMoment } from '../lib/moment';
import styles from './security-log.module.css';
import { securityEventTitle } from '../lib/security-event-titles';

/** Where a change came from: the browser and system of the session, and its network ("" for a mailed link). */
export function originOf(event: Pick<SecurityEvent, 'device' | 'place'>): string {
  return [event.device || t`A link in the mail`, event.place].filter(Boolean).join(' · ');
}

/** Settings' "Security activity" (issue 38): what changed in what protects the account, the newest first. */
export function SecurityLog() {
  const { t } = useLingui();
  const log = useSecurityLog();
  return (
    <section className={styles.card} aria-labelledby="security-log-title">
      <h2 id="security-log-title" className={styles.title}>
        <Trans>Security activity</Trans>
      </h2>
      <p className={styles.hint}>
        <Trans>
          Changes to your password, email address, two-factor sign-in and passkeys. If you do not recognise one, choose
          a new password and end the sessions you do not know.
        </Trans>
      </p>
      {log.isPending && (
        <p className={styles.hint}>
          <Trans>Loading your security activity…</Trans>
        </p>
      )}
      {log.isError && (
        <p role="alert" className={styles.error}>
          {errorMessage(log.error)}
        </p>
      )}
      {log.data?.length === 0 && (
        <p className={styles.empty}>
          <Trans>Nothing has changed since you signed up.</Trans>
        </p>
      )}
      {!!log.data?.length && (
        <ul className={styles.list} aria-label={t`Your security activity`}>
          {log.data.map((event) => (
            <li key={event.id} className={styles.item}>
              <p className={styles.what}>{securityEventTitle(event.kind)}</p>
              {event.detail && <p className={styles.detail}>{event.detail}</p>}
              <p className={styles.meta}>
                <time dateTime={event.at}>{formatMoment(event.at)}</time> · {originOf(event)}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
