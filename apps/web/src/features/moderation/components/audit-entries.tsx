import type { AuditEntry } from '@share-arts/contract';
import { Link } from 'react-router';
import { formatFullDate } from '../../../lib/format-date';
import { ACTION_LABELS, TARGET_LABELS } from './labels';
import styles from './moderation.module.css';

/** When a suspension ends, in words. */
export function untilText(until: string | null): string {
  return until ? `until ${formatFullDate(until)}` : 'for good';
}

/** A list of moderation actions: when, who, what, on what, why. */
export function AuditEntries({ entries, label }: { entries: AuditEntry[]; label: string }) {
  return (
    <ul className={styles.entries} aria-label={label}>
      {entries.map((entry) => (
        <li key={entry._id} className={styles.entry}>
          <p>
            <strong>{ACTION_LABELS[entry.action] ?? entry.action}</strong>
            {entry.action === 'suspend' && ` ${untilText(entry.until)}`} · {TARGET_LABELS[entry.targetType]}{' '}
            {entry.targetType === 'post' ? (
              <Link to={`/posts/${encodeURIComponent(entry.targetId)}`}>
                <code className={styles.id}>{entry.targetId}</code>
              </Link>
            ) : (
              <code className={styles.id}>{entry.targetId}</code>
            )}{' '}
            by @{entry.actor.username}
          </p>
          <p className={styles.muted}>
            <time dateTime={entry.createdAt}>{formatFullDate(entry.createdAt)}</time>
            {entry.reason && <> · Reason: {entry.reason}</>}
          </p>
        </li>
      ))}
    </ul>
  );
}
