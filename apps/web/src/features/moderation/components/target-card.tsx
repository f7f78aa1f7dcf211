import type { ModerationTarget } from '@share-arts/contract';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatFullDate } from '../../../lib/format-date';
import { Button } from '../../../ui/button';
import { ActionForm, type PendingAction } from './action-form';
import { AuditEntries, untilText } from './audit-entries';
import { REASON_LABELS, TARGET_LABELS } from './labels';
import styles from './moderation.module.css';

interface TargetCardProps {
  target: ModerationTarget;
}

/** One reported post, comment or person: the content, its author's record, the reports and the actions. */
export function TargetCard({ target }: TargetCardProps) {
  const { targetType, targetId, content, author, reports } = target;
  const kind = TARGET_LABELS[targetType];
  const titleId = `target-${targetType}-${targetId}`;
  const what = targetType === 'user' ? `@${author?.username ?? targetId}` : `this ${targetType}`;
  const [pending, setPending] = useState<PendingAction | null>(null);
  const actionsRef = useRef<HTMLDivElement>(null);
  const ask = (action: PendingAction['action'], title: string, confirm: string, on = { targetType, targetId }) =>
    setPending({ action, title, confirm, ...on });
  const close = () => {
    setPending(null);
    // Back to the actions (the button that opened the form is among them).
    actionsRef.current?.querySelector('button')?.focus();
  };

  const postLink = content?.postId
    ? `/posts/${encodeURIComponent(content.postId)}${targetType === 'comment' ? '#comments' : ''}`
    : null;

  return (
    <article className={styles.target} aria-labelledby={titleId}>
      <header className={styles.targetHead}>
        <h2 id={titleId} className={styles.targetTitle}>
          {kind}
          {author && <> by @{author.username}</>}
        </h2>
        <p className={styles.muted}>
          {target.reportCount} open {target.reportCount === 1 ? 'report' : 'reports'} · first{' '}
          <time dateTime={target.firstReportedAt}>{formatFullDate(target.firstReportedAt)}</time>
        </p>
      </header>

      <section className={styles.block} aria-label="Content">
        {content ? (
          <>
            {content.pictures.length > 0 && (
              <div className={styles.pictures}>
                {content.pictures.map((src, index) => (
                  <img key={src} src={src} alt={`Picture ${index + 1} of the reported ${targetType}`} loading="lazy" />
                ))}
              </div>
            )}
            <p className={styles.contentText}>{content.text || <em>No text.</em>}</p>
            <p className={styles.muted}>
              {content.moderation && <strong>{content.moderation === 'hidden' ? 'Hidden' : 'Removed'} · </strong>}
              {content.contentWarning && <>Content warning: {content.contentWarning} · </>}
              Posted <time dateTime={content.createdAt}>{formatFullDate(content.createdAt)}</time>
              {postLink && (
                <>
                  {' · '}
                  <Link to={postLink}>Open the {targetType === 'comment' ? 'post it is on' : 'post'}</Link>
                </>
              )}
            </p>
          </>
        ) : (
          <p className={styles.muted}>Its author deleted it.</p>
        )}
      </section>

      {author && (
        <section className={styles.block} aria-label="Author">
          <p>
            <Link to={`/${encodeURIComponent(author.username)}`}>@{author.username}</Link> · {author.role} · joined{' '}
            {author.accountAgeDays} {author.accountAgeDays === 1 ? 'day' : 'days'} ago · {author.postCount}{' '}
            {author.postCount === 1 ? 'post' : 'posts'}
            {author.suspendedUntil && (
              <strong>
                {' '}
                · suspended {author.suspendedUntil === 'forever' ? 'for good' : untilText(author.suspendedUntil)}
              </strong>
            )}
          </p>
          {author.history.length > 0 ? (
            <details className={styles.details}>
              <summary>Their history ({author.history.length})</summary>
              <AuditEntries entries={author.history} label={`Actions against @${author.username}`} />
            </details>
          ) : (
            <p className={styles.muted}>No earlier actions against them.</p>
          )}
        </section>
      )}

      <section className={styles.block} aria-label="Reports">
        <ul className={styles.entries}>
          {reports.map((report) => (
            <li key={report._id} className={styles.entry}>
              <p>
                <strong>{REASON_LABELS[report.reason] ?? report.reason}</strong> ·{' '}
                {report.reporter
                  ? `from @${report.reporter.username}`
                  : `from the moderators of ${report.server ?? 'another server'}`}{' '}
                · <time dateTime={report.createdAt}>{formatFullDate(report.createdAt)}</time>
              </p>
              {report.note && <p className={styles.note}>{report.note}</p>}
            </li>
          ))}
        </ul>
        {target.actions.length > 0 && (
          <details className={styles.details}>
            <summary>Earlier actions on it ({target.actions.length})</summary>
            <AuditEntries entries={target.actions} label={`Earlier actions on ${what}`} />
          </details>
        )}
      </section>

      <div ref={actionsRef} className={styles.actions} role="group" aria-label={`Actions on ${what}`}>
        <Button variant="secondary" onClick={() => ask('dismiss', `Dismiss the reports of ${what}`, 'Dismiss')}>
          Dismiss
        </Button>
        {targetType !== 'user' && (
          <>
            <Button variant="secondary" onClick={() => ask('hide', `Hide ${what}`, 'Hide')}>
              Hide
            </Button>
            <Button variant="secondary" onClick={() => ask('remove', `Remove ${what}`, 'Remove')}>
              Remove
            </Button>
          </>
        )}
        {targetType === 'post' && (
          <Button variant="secondary" onClick={() => ask('mark-sensitive', `Mark ${what} sensitive`, 'Mark sensitive')}>
            Mark sensitive
          </Button>
        )}
        {author && author.role === 'user' && (
          <Button
            variant="secondary"
            onClick={() =>
              ask('suspend', `Suspend @${author.username}`, 'Suspend', {
                targetType: 'user',
                targetId: author.username,
              })
            }
          >
            Suspend @{author.username}
          </Button>
        )}
      </div>
      {pending && <ActionForm key={`${pending.action}:${pending.targetId}`} pending={pending} onClose={close} />}
    </article>
  );
}
