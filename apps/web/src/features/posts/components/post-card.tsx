import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { Post } from '@share-arts/contract';
import { Bookmark, ChevronDown, Hash, Heart, MessageCircle, MoreHorizontal, Pin } from 'lucide-react';
import { lazy, memo, Suspense, useId, useState, type CSSProperties } from 'react';
import { Link } from 'react-router';
import { formatCount } from '../../../lib/format-count';
import { formatFullDate, formatPostTime } from '../../../lib/format-date';
import { profilePath } from '../../../lib/handle';
import { useWatchPost } from '../../../lib/live';
import { clampedRatio, isPanorama, pageBoxRatio } from '../../../lib/picture-shape';
import { useCurrentUser } from '../../../lib/session';
import { Avatar } from '../../../ui/avatar';
import { Handle } from '../../../ui/handle';
import { LazyMenu } from '../../../ui/lazy-menu';
import { RichText, tagPath } from '../../../ui/rich-text';
import { useShadowedPost } from '../api/post-shadow';
import { useToggleBookmark } from '../api/toggle-bookmark';
import { useToggleLike } from '../api/toggle-like';
import { PostMedia } from './post-media';
import { PostSource } from './post-source';
import { DEFAULT_PICTURE_SIZE, postPictures } from './post-picture';
import { OpenBadge } from '../../../ui/open-badge';
import styles from './post-card.module.css';

// The card's menu (its items and what they do) is fetched when it is first opened (ui/lazy-menu.tsx).
const loadPostMenu = () => import('./post-menu');
const PostMenu = lazy(loadPostMenu);
// The editor (and its emoji picker) is fetched only when someone edits, the delete dialog when someone deletes.
const PostComposer = lazy(() => import('./post-composer'));
const DeletePostDialog = lazy(() => import('./delete-post-dialog'));
// A work's edit history (issue 41), when its "edited" is chosen.
const PostHistoryDialog = lazy(() => import('./post-history-dialog'));
// Report and "Mute @author" (someone else's post, signed in): the dialog or the request loads when chosen.
const SafetyDialog = lazy(() => import('../../safety/dialogs'));
// "Save to…" any of one's collections (issue 41): the dialog loads when chosen.
const SaveToDialog = lazy(() => import('../../collections/save-to'));

interface PostCardProps {
  /** The cached (server) copy; pending likes, saves and follows are drawn on top of it. */
  post: Post;
  variant?: 'feed' | 'page';
  /** The first card on screen: its picture loads at once rather than lazily. */
  priority?: boolean;
  /** After the post is deleted (the post page goes home). */
  onDeleted?: () => void;
  /** Set by a role="feed" list: the 1-based position, and the list's size (-1 while more can load). */
  posinset?: number;
  /** One of the artist's pinned works, shown first on their profile. */
  pinned?: boolean;
  setsize?: number;
}

/**
 * In a feed, cards far off screen skip layout and paint (`content-visibility: auto` in the list's CSS).
 * Until a card has been drawn once (then the browser remembers its size), it reserves about its real
 * height: the picture's box at the column's width and its clamped shape, a carousel's dots, plus the
 * card's text rows.
 */
function intrinsicSize(post: Post): CSSProperties {
  const pictures = postPictures(post);
  const ratio = (1 / clampedRatio(pictures[0] ?? DEFAULT_PICTURE_SIZE)).toFixed(4);
  // The sum itself is in post-card.module.css (.card's contain-intrinsic-size).
  return { '--card-ratio': ratio, '--card-dots': pictures.length > 1 ? '2rem' : '0rem' } as CSSProperties;
}

/** "1,234 likes", in the current language (called at render, so it follows a switch of language). */
function likeLabel(count: number): string {
  const shown = formatCount(count);
  return plural(count, { one: `${shown} like`, other: `${shown} likes` });
}

/**
 * A post: author, picture, heart, comments, save, like count, content and time. Memoised: a feed
 * re-renders its list when a page arrives, and the cards already there keep their props.
 */
export const PostCard = memo(function PostCard({
  post: cached,
  variant = 'feed',
  priority = false,
  onDeleted,
  posinset,
  setsize,
  pinned = false,
}: PostCardProps) {
  const { t } = useLingui();
  const post = useShadowedPost(cached);
  // On screen, its counts follow everyone's likes and comments (the live stream's `watch`).
  const watchRef = useWatchPost<HTMLElement>(cached._id);
  const headingId = useId();
  const { data: me } = useCurrentUser();
  const toggleLike = useToggleLike();
  const toggleBookmark = useToggleBookmark();
  const [dialog, setDialog] = useState<'edit' | 'delete' | 'report' | 'mute' | 'history' | 'save-to' | null>(null);

  const isAuthor = post.viewer.isAuthor || (me != null && me._id === post.userId);
  const authorPath = profilePath(post.username);
  const postPath = `/posts/${encodeURIComponent(post._id)}`;
  const { liked, bookmarked } = post.viewer;
  // Someone on another server is named by their whole handle.
  const authorName = post.origin ? <Handle username={post.username} /> : post.username;
  const reasonTag = post.reason?.tag;
  const editedAt = post.editedAt ? formatFullDate(post.editedAt) : '';

  // On the post page, the artwork beside the details on a wide screen, unless it is a panorama.
  const beside = variant === 'page' && !isPanorama(pageBoxRatio(postPictures(post)));
  const classes = [styles.card, styles[variant], beside ? styles.beside : ''].filter(Boolean).join(' ');

  const time = (
    <time className={styles.time} dateTime={post.createdAt} title={formatFullDate(post.createdAt)}>
      {formatPostTime(post.createdAt)}
    </time>
  );
  const source = (
    <PostSource post={post} variant={variant}>
      {variant === 'feed' ? (
        // The post's own page is one tap away from its time, as on most social sites: the picture opens
        // the viewer.
        <Link to={postPath} className={styles.timeLink}>
          {time}
          <span className="visually-hidden">
            <Trans>, open the post</Trans>
          </span>
        </Link>
      ) : (
        time
      )}
    </PostSource>
  );

  return (
    <article
      ref={watchRef}
      className={classes}
      aria-labelledby={headingId}
      aria-posinset={posinset}
      aria-setsize={setsize}
      style={posinset === undefined ? undefined : intrinsicSize(cached)}
    >
      {pinned && (
        <p className={styles.reason}>
          <Pin aria-hidden="true" size="1em" />
          <span>
            <Trans>Pinned</Trans>
          </span>
        </p>
      )}
      {variant === 'feed' && post.reason && (
        // On Home, a post by someone not followed says why it is there.
        <p className={styles.reason}>
          <Hash aria-hidden="true" size="1em" />
          <span>
            <Trans>
              Because you follow{' '}
              <Link to={tagPath(post.reason.tag)} className={styles.reasonLink}>
                #{reasonTag}
              </Link>
            </Trans>
          </span>
        </p>
      )}
      <header className={styles.head}>
        <Link to={authorPath} className={styles.avatarLink} tabIndex={-1} aria-hidden="true">
          <Avatar src={post.userPhoto} name={post.name || post.username} size={2.5} decorative />
        </Link>
        <div className={styles.byline}>
          <h2 id={headingId} className={styles.author}>
            {/* One message, so a language may put the hidden "Post by" after the name. */}
            <Trans>
              <span className="visually-hidden">Post by </span>
              <Link to={authorPath} className={styles.authorLink}>
                {authorName}
              </Link>
            </Trans>
            {post.authorOpenForCommissions && <OpenBadge />}
          </h2>
          {post.editedAt ? (
            // An edited work says so beside its time (issue 41); "edited" opens its history.
            <span className={styles.meta}>
              {source}
              <button
                type="button"
                className={styles.edited}
                title={t`Edited ${editedAt}`}
                // One name, read as written (a hidden span beside the word is read as a separate word).
                aria-label={t`edited: see what changed`}
                onClick={() => setDialog('history')}
              >
                <span aria-hidden="true">· </span>
                <Trans>edited</Trans>
              </button>
            </span>
          ) : (
            source
          )}
        </div>
        <LazyMenu
          label={t`Post options`}
          trigger={<MoreHorizontal aria-hidden="true" size="1.35em" />}
          className={styles.menu}
          load={loadPostMenu}
        >
          {(openAt) => (
            <PostMenu
              post={post}
              cached={cached}
              isAuthor={isAuthor}
              openAt={openAt}
              onDialog={setDialog}
              className={styles.menu}
            />
          )}
        </LazyMenu>
      </header>

      <div className={styles.media}>
        <PostMedia post={post} variant={variant} priority={priority} />
      </div>

      <div className={styles.actions}>
        <button
          type="button"
          className={`${styles.action} ${styles.heart}`}
          aria-label={liked ? t`Unlike` : t`Like`}
          aria-pressed={liked}
          onClick={() => toggleLike(cached)}
        >
          <Heart aria-hidden="true" size="1.5em" fill={liked ? 'currentColor' : 'none'} />
        </button>
        <Link
          to={variant === 'page' ? '#comments' : `${postPath}#comments`}
          className={styles.action}
          aria-label={t`Comments`}
        >
          <MessageCircle aria-hidden="true" size="1.5em" />
        </Link>
        <button
          type="button"
          className={`${styles.action} ${styles.save}`}
          aria-label={bookmarked ? t`Remove from saved` : t`Save`}
          aria-pressed={bookmarked}
          onClick={() => toggleBookmark(cached)}
        >
          <Bookmark aria-hidden="true" size="1.5em" fill={bookmarked ? 'currentColor' : 'none'} />
        </button>
        {me && (
          <button
            type="button"
            className={`${styles.action} ${styles.saveTo}`}
            aria-label={t`Save to…`}
            aria-haspopup="dialog"
            onClick={() => setDialog('save-to')}
          >
            <ChevronDown aria-hidden="true" size="1.1em" />
          </button>
        )}
      </div>

      <div className={styles.text}>
        <p className={styles.likes}>{likeLabel(post.likes.likeCount)}</p>
        {post.content && (
          <p className={styles.content} dir="auto" lang={post.language ?? undefined}>
            <RichText text={post.content} />
          </p>
        )}
      </div>

      {(dialog === 'report' || dialog === 'mute') && (
        <Suspense fallback={null}>
          <SafetyDialog
            action={dialog}
            targetType="post"
            targetId={post._id}
            what="post"
            username={post.username}
            remoteHost={post.origin?.host}
            onClose={() => setDialog(null)}
          />
        </Suspense>
      )}
      {dialog === 'save-to' && (
        <Suspense fallback={null}>
          <SaveToDialog
            postId={post._id}
            saved={bookmarked}
            onToggleSaved={() => toggleBookmark(cached)}
            onClose={() => setDialog(null)}
          />
        </Suspense>
      )}
      {dialog === 'delete' && (
        <Suspense fallback={null}>
          <DeletePostDialog postId={post._id} onClose={() => setDialog(null)} onDeleted={onDeleted} />
        </Suspense>
      )}
      {dialog === 'history' && (
        <Suspense fallback={null}>
          <PostHistoryDialog postId={post._id} onClose={() => setDialog(null)} />
        </Suspense>
      )}
      {dialog === 'edit' && (
        <Suspense fallback={null}>
          <PostComposer post={cached} onClose={() => setDialog(null)} />
        </Suspense>
      )}
    </article>
  );
});
