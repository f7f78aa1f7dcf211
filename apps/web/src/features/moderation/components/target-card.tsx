import type { ModerationTarget } from '@share-arts/contract';
import { select } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatFullDate } from '../../../lib/format-date';
import { Button } from '../../../ui/button';
import { ActionForm, type PendingAction } from './action-form';
import { ReportedReference } from './reported-reference';
import { AuditEntries, untilText } from './audit-entries';
import { REASON_LABELS, TARGET_LABELS } from './labels';
import styles from './moderation.module.css';

interface TargetCardProps {
  target: ModerationTarget;
}

/** One reported post, comment or person: the content, its author's record, the reports and the actions. */
export function TargetCard({ target }: TargetCardProps) {
  const { t, i18n } = useLingui();
  const { targetType, targetId, content, author, reports } = target;
  const kind = i18n._(TARGET_LABELS[targetType]);
  const titleId = `target-${targetType}-${targetId}`;
  // Who or what the actions are on: a person by name, else "this post" (each its own words in every language).
  const name = author?.username ?? targetId;
  const words = {
    dismiss: t`${select(targetType, {
      user: `Dismiss the reports of @${name}`,
      post: 'Dismiss the reports of this post',
      comment: 'Dismiss the reports of this comment',
      other: 'Dismiss the reports of this inquiry',
    })}`,
    hide: t`${select(targetType, {
      user: `Hide @${name}`,
      post: 'Hide this post',
      comment: 'Hide this comment',
      other: 'Hide this inquiry',
    })}`,
    remove: t`${select(targetType, {
      user: `Remove @${name}`,
      post: 'Remove this post',
      comment: 'Remove this comment',
      other: 'Remove this inquiry',
    })}`,
    earlier: t`${select(targetType, {
      user: `Earlier actions on @${name}`,
      post: 'Earlier actions on this post',
      comment: 'Earlier actions on this comment',
      other: 'Earlier actions on this inquiry',
    })}`,
    actions: t`${select(targetType, {
      user: `Actions on @${name}`,
      post: 'Actions on this post',
      comment: 'Actions on this comment',
      other: 'Actions on this inquiry',
    })}`,
  };
  const [pending, setPending] = useState<PendingAction | null>(null);
  const actionsRef = useRef<HTMLDivElement>(null);
  const ask = (action: PendingAction['action'], title: string, confirm: string, on = { targetType, targetId }) =>
    setPending({ action, title, confirm, ...on });
  const close = () => {
    setPending(null);
    // Back to the actions (the button that opened the form is among them).
    actionsRef.current?.querySelector('button')?.focus();
  };

  const authorName = author?.username ?? '';
  const reportCount = target.reportCount;
  const ageDays = author?.accountAgeDays ?? 0;
  const postCount = author?.postCount ?? 0;
  const firstReported = formatFullDate(target.firstReportedAt);
  const warning = content?.contentWarning;
  const posted = content ? formatFullDate(content.createdAt) : '';
  const suspendedUntil = author?.suspendedUntil ? untilText(author.suspendedUntil) : '';
  const historyCount = author?.history.length ?? 0;
  const actionCount = target.actions.length;
  const postLink = content?.postId
    ? `/posts/${encodeURIComponent(content.postId)}${targetType === 'comment' ? '#comments' : ''}`
    : null;

  return (
    <article className={styles.target} aria-labelledby={titleId}>
      <header className={styles.targetHead}>
        <h2 id={titleId} className={styles.targetTitle}>
          {author
            ? t`${select(targetType, {
                post: `Post by @${authorName}`,
                comment: `Comment by @${authorName}`,
                user: `Person by @${authorName}`,
                other: `Inquiry by @${authorName}`,
              })}`
            : kind}
        </h2>
        <p className={styles.muted}>
          <Plural value={reportCount} one="# open report" other="# open reports" /> ·{' '}
          <Trans>
            first <time dateTime={target.firstReportedAt}>{firstReported}</time>
          </Trans>
        </p>
      </header>

      <section className={styles.block} aria-label={t`Content`}>
        {content ? (
          <>
            {content.pictures.length > 0 && (
              <div className={styles.pictures}>
                {content.pictures.map((src, index) => {
                  const number = index + 1;
                  const alt =
                    targetType === 'comment'
                      ? t`Picture ${number} of the reported comment`
                      : targetType === 'inquiry'
                        ? t`Picture ${number} of the reported inquiry`
                        : t`Picture ${number} of the reported post`;
                  return <img key={src} src={src} alt={alt} loading="lazy" />;
                })}
              </div>
            )}
            {/* A work's process pictures (issue 41); an answer cached before the server sent them has none. */}
            {(content.processPictures ?? []).length > 0 && (
              <>
                <p className={styles.muted}>
                  <Trans>Process pictures, in the artist’s order:</Trans>
                </p>
                <div className={styles.pictures}>
                  {content.processPictures.map((src, index) => {
                    const number = index + 1;
                    return (
                      <img key={src} src={src} alt={t`Process picture ${number} of the reported work`} loading="lazy" />
                    );
                  })}
                </div>
              </>
            )}
            {/* An inquiry's reference pictures (issue 42): private, read with the token while it is reported. */}
            {(content.references ?? []).length > 0 && (
              <>
                <p className={styles.muted}>
                  <Trans>Reference pictures sent with the inquiry:</Trans>
                </p>
                <div className={styles.pictures}>
                  {content.references.map((url, index) => (
                    <ReportedReference key={url} url={url} index={index} />
                  ))}
                </div>
              </>
            )}
            <p className={styles.contentText}>
              {content.text || (
                <em>
                  <Trans>No text.</Trans>
                </em>
              )}
            </p>
            <p className={styles.muted}>
              {content.moderation && (
                <strong>
                  {content.moderation === 'hidden' ? t`Hidden` : t`Removed`}
                  {' · '}
                </strong>
              )}
              {warning && (
                <>
                  <Trans>Content warning: {warning}</Trans>
                  {' · '}
                </>
              )}
              <Trans>
                Posted <time dateTime={content.createdAt}>{posted}</time>
              </Trans>
              {postLink && (
                <>
                  {' · '}
                  <Link to={postLink}>{targetType === 'comment' ? t`Open the post it is on` : t`Open the post`}</Link>
                </>
              )}
            </p>
          </>
        ) : (
          <p className={styles.muted}>
            <Trans>Its author deleted it.</Trans>
          </p>
        )}
      </section>

      {author && (
        <section className={styles.block} aria-label={t`Author`}>
          <p>
            <Link to={`/${encodeURIComponent(author.username)}`}>@{author.username}</Link> · {author.role} ·{' '}
            <Plural value={ageDays} one="joined # day ago" other="joined # days ago" /> ·{' '}
            <Plural value={postCount} one="# post" other="# posts" />
            {author.suspendedUntil && (
              <strong>
                {' · '}
                {author.suspendedUntil === 'forever' ? t`suspended for good` : t`suspended ${suspendedUntil}`}
              </strong>
            )}
          </p>
          {historyCount > 0 ? (
            <details className={styles.details}>
              <summary>
                <Trans>Their history ({historyCount})</Trans>
              </summary>
              <AuditEntries entries={author.history} label={t`Actions against @${authorName}`} />
            </details>
          ) : (
            <p className={styles.muted}>
              <Trans>No earlier actions against them.</Trans>
            </p>
          )}
        </section>
      )}

      <section className={styles.block} aria-label={t`Reports`}>
        <ul className={styles.entries}>
          {reports.map((report) => {
            const reason = REASON_LABELS[report.reason];
            const reporter = report.reporter?.username;
            const server = report.server;
            return (
              <li key={report._id} className={styles.entry}>
                <p>
                  <strong>{reason ? i18n._(reason) : report.reason}</strong> ·{' '}
                  {reporter
                    ? t`from @${reporter}`
                    : server
                      ? t`from the moderators of ${server}`
                      : t`from the moderators of another server`}{' '}
                  · <time dateTime={report.createdAt}>{formatFullDate(report.createdAt)}</time>
                </p>
                {report.note && <p className={styles.note}>{report.note}</p>}
              </li>
            );
          })}
        </ul>
        {actionCount > 0 && (
          <details className={styles.details}>
            <summary>
              <Trans>Earlier actions on it ({actionCount})</Trans>
            </summary>
            <AuditEntries entries={target.actions} label={words.earlier} />
          </details>
        )}
      </section>

      <div ref={actionsRef} className={styles.actions} role="group" aria-label={words.actions}>
        <Button variant="secondary" onClick={() => ask('dismiss', words.dismiss, t`Dismiss`)}>
          <Trans>Dismiss</Trans>
        </Button>
        {targetType !== 'user' && (
          <>
            <Button variant="secondary" onClick={() => ask('hide', words.hide, t`Hide`)}>
              <Trans>Hide</Trans>
            </Button>
            <Button variant="secondary" onClick={() => ask('remove', words.remove, t`Remove`)}>
              <Trans>Remove</Trans>
            </Button>
          </>
        )}
        {targetType === 'post' && (
          <Button
            variant="secondary"
            onClick={() => ask('mark-sensitive', t`Mark this post sensitive`, t`Mark sensitive`)}
          >
            <Trans>Mark sensitive</Trans>
          </Button>
        )}
        {author && author.role === 'user' && (
          <Button
            variant="secondary"
            onClick={() =>
              ask('suspend', t`Suspend @${authorName}`, t`Suspend`, {
                targetType: 'user',
                targetId: author.username,
              })
            }
          >
            <Trans>Suspend @{authorName}</Trans>
          </Button>
        )}
      </div>
      {pending && <ActionForm key={`${pending.action}:${pending.targetId}`} pending={pending} onClose={close} />}
    </article>
  );
}
