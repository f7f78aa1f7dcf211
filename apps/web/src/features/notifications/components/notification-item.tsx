import { notificationAction, type Notification } from '@share-arts/contract';
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
import {
  actorsPhrase,
  collectionTitle,
  externalTarget,
  inquiryStateAction,
  notificationTarget,
  seriesTitle,
} from '../lib/describe';
import styles from './notification-item.module.css';

/** Each kind's icon (its sentence is the contract's notificationAction, shared with the server's live frames). */
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
  const { kind, actors, actorCount, post, comment, read } = notification;
  // A report's outcome is told in the server's words, about no one else.
  const resolved =
    kind === 'report-resolved' ? (notification.report?.text ?? 'A moderator reviewed your report.') : null;
  const action =
    resolved ??
    (kind === 'inquiry-state' ? inquiryStateAction(notification) : notificationAction(kind, comment !== null));
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
  const external = externalTarget(notification);
  const sentence = (
    <>
      {!read && <span className="visually-hidden">Unread: </span>}
      {resolved ?? (
        <>
          <span className={styles.actors}>{actorsPhrase(actors, actorCount)}</span> {action}
          {kind === 'series-work' && <em className={styles.actors}> {seriesTitle(notification)}</em>}
          {kind === 'collection-work' && <em className={styles.actors}> {collectionTitle(notification)}</em>}
        </>
      )}
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
              <span className="visually-hidden"> (their profile on their server, opens in a new tab)</span>
            </a>
          ) : (
            <Link to={notificationTarget(notification)} className={styles.link} onClick={() => onOpen(notification)}>
              {sentence}
            </Link>
          )}
          {quote && <span className={styles.quote}>: “{quote}”</span>}
        </p>
        {excerpt && <p className={styles.excerpt}>{excerpt}</p>}
        {remote && (
          <p className={styles.excerpt}>
            {remote.name} · on {remote.server}
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
