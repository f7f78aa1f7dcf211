import { Trans as TransMessage, useLingui } from '@lingui/react';
import { Trans, useLingui as useLinguiMacro } from '@lingui/react/macro';
import type { Notification } from '@share-arts/contract';
import {
  ArrowUp,
  AtSign,
  CircleAlert,
  ExternalLink,
  Heart,
  Inbox,
  Layers,
  LibraryBig,
  MessageCircle,
  Palette,
  Repeat2,
  UserPlus,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import { formatFullDate } from '../../../lib/format-date';
import { formatRelativeTime } from '../../../lib/relative-time';
import { fullName } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import { externalTarget, notificationSentence, notificationTarget } from '../lib/describe';
import { REPORT_RESOLVED } from '../lib/notification-text';
import styles from './notification-item.module.css';

/** Each kind's icon (its sentence is lib/notification-text's, the contract's NOTIFICATION_ACTIONS in each language). */
const ICON: Record<Notification['kind'], LucideIcon> = {
  like: Heart,
  comment: MessageCircle,
  upvote: ArrowUp,
  follow: UserPlus,
  mention: AtSign,
  'report-resolved': CircleAlert,
  boost: Repeat2,
  'series-work': Layers,
  // A work added to someone's public collection (issue 41): the row leads to the collection.
  'collection-work': LibraryBig,
  // Open for commissions (issue 42): the row leads to the artist's profile (the notification names no post).
  'commissions-open': Palette,
  // Inquiries (issue 42): each row leads to the thread.
  inquiry: Inbox,
  'inquiry-message': MessageCircle,
  'inquiry-state': Inbox,
};

interface NotificationItemProps {
  notification: Notification;
  now: number;
  /** Called when the group is opened (its link followed). */
  onOpen: (notification: Notification) => void;
}

/**
 * One group: who, what, on which post, when; the whole row opens the post or the profile (a follower on another
 * server's on their own server, in a new tab).
 */
export function NotificationItem({ notification, now, onOpen }: NotificationItemProps) {
  const { kind, actors, post, comment, read } = notification;
  const { _ } = useLingui();
  const { t } = useLinguiMacro();
  // A report's outcome is told in the server's words, about no one else.
  const resolved = kind === 'report-resolved' ? (notification.report?.text ?? _(REPORT_RESOLVED)) : null;
  const Icon = ICON[kind];
  // A comment is quoted in the sentence; a vote shows the comment, a like or a boost the post, on a line below.
  const quote = kind === 'comment' ? comment?.content : undefined;
  // A mention shows the text it was written in: the comment's, or the post's.
  const excerpt =
    kind === 'upvote'
      ? comment?.content
      : kind === 'like' || kind === 'boost' || kind === 'series-work' || kind === 'collection-work'
        ? post?.content
        : kind === 'mention'
          ? (comment?.content ?? post?.content)
          : undefined;
  // Someone on another server (issue 39): their name and server under the sentence, which names their handle.
  const first = actors[0];
  const remote =
    kind === 'follow' && first?.remote
      ? { name: fullName(first), server: first.remote.handle.split('@').pop() }
      : undefined;
  const remoteName = remote?.name;
  const remoteServer = remote?.server;
  const external = externalTarget(notification);
  const sentence = (
    <>
      {!read && <span className="visually-hidden">{t`Unread:`} </span>}
      {resolved ?? <Sentence notification={notification} />}
    </>
  );

  return (
    <li className={`${styles.item} ${read ? '' : styles.unread}`}>
      <span className={`${styles.kind} ${styles[kind]}`} aria-hidden="true">
        <Icon size="1.1em" strokeWidth={2.25} fill={kind === 'like' ? 'currentColor' : 'none'} />
      </span>
      <div className={styles.body}>
        <div className={styles.avatars} aria-hidden="true" hidden={resolved !== null}>
          {actors.slice(0, 3).map((actor) => (
            <span key={actor._id} className={styles.avatar}>
              <Avatar src={actor.userPhoto} name={fullName(actor)} size={2} decorative />
            </span>
          ))}
        </div>
        <p className={styles.sentence}>
          {external ? (
            <a
              href={external}
              target="_blank"
              rel="noopener nofollow ugc"
              className={styles.link}
              onClick={() => onOpen(notification)}
            >
              {sentence}
              <ExternalLink className={styles.external} aria-hidden="true" size="0.95em" />
              <span className="visually-hidden">
                {' '}
                <Trans>(their profile on their server, opens in a new tab)</Trans>
              </span>
            </a>
          ) : (
            <Link to={notificationTarget(notification)} className={styles.link} onClick={() => onOpen(notification)}>
              {sentence}
            </Link>
          )}
          {quote && (
            <span className={styles.quote}>
              <Trans>: “{quote}”</Trans>
            </span>
          )}
        </p>
        {excerpt && <p className={styles.excerpt}>{excerpt}</p>}
        {remote && (
          <p className={styles.excerpt}>
            <Trans>
              {remoteName} · on {remoteServer}
            </Trans>
          </p>
        )}
        <p className={styles.meta}>
          {!read && <span className={styles.dot} aria-hidden="true" />}
          <time dateTime={notification.createdAt} title={formatFullDate(notification.createdAt)}>
            {formatRelativeTime(notification.createdAt, now)}
          </time>
        </p>
      </div>
      {post && kind !== 'follow' && <img className={styles.thumb} src={post.postPic} alt="" loading="lazy" />}
    </li>
  );
}

/**
 * The sentence after the people, whole in the app's language (lib/notification-text): the people, and a series'
 * or a collection's title, set apart in their own elements.
 */
function Sentence({ notification }: { notification: Notification }) {
  const { message, values } = notificationSentence(notification);
  const { actors, count, title } = values;
  return (
    <TransMessage
      id={message.id!}
      message={message.message}
      values={{
        count,
        actors: <span className={styles.actors}>{actors}</span>,
        title: title === undefined ? undefined : <em className={styles.actors}>{title}</em>,
      }}
    />
  );
}
