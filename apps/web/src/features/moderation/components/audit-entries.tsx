import type { AuditEntry } from '@share-arts/contract';
import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { formatFullDate } from '../../../lib/format-date';
import { ACTION_LABELS, TARGET_LABELS } from './labels';
import styles from './moderation.module.css';

/** When a suspension ends, in words (in the current language, at call time). */
export function untilText(until: string | null): string {
  if (!until) return t`for good`;
  const date = formatFullDate(until);
  return t`until ${date}`;
}

/** A list of moderation actions: when, who, what, on what, why. */
export function AuditEntries({ entries, label }: { entries: AuditEntry[]; label: string }) {
  const { i18n } = useLingui();
  return (
    <ul className={styles.entries} aria-label={label}>
      {entries.map((entry) => {
        const action = ACTION_LABELS[entry.action];
        const actor = entry.actor.username;
        const reason = entry.reason;
        return (
          <li key={entry._id} className={styles.entry}>
            <p>
              <strong>{action ? i18n._(action) : entry.action}</strong>
              {entry.action === 'suspend' && ` ${untilText(entry.until)}`} · {i18n._(TARGET_LABELS[entry.targetType])}{' '}
              {entry.targetType === 'post' ? (
                <Link to={`/posts/${encodeURIComponent(entry.targetId)}`}>
                  <code className={styles.id}>{entry.targetId}</code>
                </Link>
              ) : (
                <code className={styles.id}>{entry.targetId}</code>
              )}{' '}
              <Trans>by @{actor}</Trans>
            </p>
            <p className={styles.muted}>
              <time dateTime={entry.createdAt}>{formatFullDate(entry.createdAt)}</time>
              {reason && (
                <>
                  {' · '}
                  <Trans>Reason: {reason}</Trans>
                </>
              )}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
