import { Trans, useLingui } from '@lingui/react/macro';
import type { Comment } from '@share-arts/contract';
import { CircleAlert, ExternalLink, MoreHorizontal, Pencil, Trash2 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { formatFullDate } from '../../../lib/format-date';
import { formatRelativeTime } from '../../../lib/relative-time';
import { httpUrl } from '../../../lib/safe-url';
import { useCurrentUser } from '../../../lib/session';
import { Avatar } from '../../../ui/avatar';
import { Menu, type MenuItem } from '../../../ui/menu';
import { RichText } from '../../../ui/rich-text';
import { isPendingComment } from '../api/add-comment';
import { useVoteComment, useVotedComment } from '../api/vote-comment';
import { CommentVotes } from './comment-votes';
import { DeleteCommentDialog } from './delete-comment-dialog';
import { EditCommentDialog } from './edit-comment-dialog';
import styles from './comment-item.module.css';

// Report: the dialog loads when chosen.
const SafetyDialog = lazy(() => import('../../safety/dialogs'));

interface CommentItemProps {
  /** The cached (server) copy; a pending vote is drawn on top of it. */
  comment: Comment;
  /** Only the comment's author may edit it. */
  canEdit: boolean;
  /** Its author, or the post's author, may delete it. */
  canDelete: boolean;
  now: number;
  voteHintId: string;
  onEdited: () => void;
  onDeleted: () => void;
}

/**
 * Who wrote a comment: an account here, its avatar and @username leading to the profile; or someone on another
 * server of the fediverse (a reply from Mastodon or Pixelfed, issue 39), named by their @handle, which leads out to
 * their profile on their own server in a new tab (as PersonRow names them), with the default photo and no link into
 * this site: they have no profile here.
 */
function CommentAuthor({ comment }: { comment: Comment }) {
  if (comment.remote) {
    const url = httpUrl(comment.remote.url);
    // `@user@host`, free to break before the host's @ in a narrow column rather than inside a word.
    const [user, host] = comment.remote.handle.split('@');
    const label = host ? (
      <>
        @{user}
        <wbr />@{host}
      </>
    ) : (
      `@${comment.remote.handle}`
    );
    return url ? (
      <a
        className={styles.author}
        href={url}
        target="_blank"
        rel="noopener nofollow ugc"
        title={comment.firstName || undefined}
      >
        {label}
        <ExternalLink className={styles.external} aria-hidden="true" size="0.9em" />
        <span className="visually-hidden">
          {' '}
          <Trans>(their profile on their server, opens in a new tab)</Trans>
        </span>
      </a>
    ) : (
      <span className={styles.author}>{label}</span>
    );
  }
  return (
    <Link to={`/${encodeURIComponent(comment.username)}`} className={styles.author}>
      @{comment.username}
    </Link>
  );
}

/** One comment: who wrote it and when, the text with its line breaks, votes, and the actions allowed. */
export function CommentItem({
  comment: cached,
  canEdit,
  canDelete,
  now,
  voteHintId,
  onEdited,
  onDeleted,
}: CommentItemProps) {
  const { t } = useLingui();
  const comment = useVotedComment(cached);
  const username = comment.username;
  const editedAt = comment.edited ? formatFullDate(comment.updatedAt) : '';
  const vote = useVoteComment();
  const [dialog, setDialog] = useState<'edit' | 'delete' | 'report' | null>(null);
  const signedIn = useCurrentUser().data != null;
  const pending = isPendingComment(comment);
  const profilePath = `/${encodeURIComponent(comment.username)}`;
  const avatar = <Avatar src={comment.userPhoto} name={comment.username} size={2.25} decorative />;

  const items: MenuItem[] = [];
  if (canEdit) {
    items.push({
      label: t`Edit Comment`,
      icon: <Pencil aria-hidden="true" size="1.1em" />,
      onSelect: () => setDialog('edit'),
    });
  }
  if (canDelete) {
    items.push({
      label: t`Delete Comment`,
      icon: <Trash2 aria-hidden="true" size="1.1em" />,
      tone: 'danger',
      onSelect: () => setDialog('delete'),
    });
  }

  // Someone else's comment can be reported (signed in: only they see this menu's other items anyway).
  if (!canEdit && signedIn) {
    items.push({
      label: t`Report`,
      icon: <CircleAlert aria-hidden="true" size="1.1em" />,
      onSelect: () => setDialog('report'),
    });
  }

  return (
    <article
      className={`${styles.comment} ${pending ? styles.pending : ''}`}
      aria-label={t`Comment by ${username}`}
      aria-busy={pending || undefined}
    >
      {comment.remote ? (
        <span className={styles.avatarLink}>{avatar}</span>
      ) : (
        <Link to={profilePath} className={styles.avatarLink} tabIndex={-1} aria-hidden="true">
          {avatar}
        </Link>
      )}
      <div className={styles.body}>
        <p className={styles.meta}>
          <CommentAuthor comment={comment} />
          <span aria-hidden="true" className={styles.dot}>
            ·
          </span>
          {pending ? (
            <span className={styles.time}>
              <Trans>Posting…</Trans>
            </span>
          ) : (
            <time className={styles.time} dateTime={comment.createdAt} title={formatFullDate(comment.createdAt)}>
              {formatRelativeTime(comment.createdAt, now)}
            </time>
          )}
          {comment.edited && (
            <>
              <span aria-hidden="true" className={styles.dot}>
                ·
              </span>
              <span className={styles.time} title={t`Edited ${editedAt}`}>
                <Trans>edited</Trans>
              </span>
            </>
          )}
        </p>
        <p className={styles.content} dir="auto">
          <RichText text={comment.content} />
        </p>
        <CommentVotes comment={comment} disabled={pending} hintId={voteHintId} onVote={(next) => vote(cached, next)} />
      </div>
      {!pending && items.length > 0 && (
        <Menu
          label={t`Comment options`}
          trigger={<MoreHorizontal aria-hidden="true" size="1.25em" />}
          items={items}
          className={styles.menu}
        />
      )}

      {dialog === 'report' && (
        <Suspense fallback={null}>
          <SafetyDialog
            action="report"
            targetType="comment"
            targetId={cached._id}
            what="comment"
            username={cached.username}
            remoteHost={cached.remote?.handle.split('@')[1]}
            onClose={() => setDialog(null)}
          />
        </Suspense>
      )}
      {dialog === 'edit' && <EditCommentDialog comment={cached} onClose={() => setDialog(null)} onEdited={onEdited} />}
      {dialog === 'delete' && (
        <DeleteCommentDialog comment={cached} onClose={() => setDialog(null)} onDeleted={onDeleted} />
      )}
    </article>
  );
}
