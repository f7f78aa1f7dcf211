import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans, useLingui as useLinguiMacro } from '@lingui/react/macro';
import type { Post } from '@share-arts/contract';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { formatCount } from '../../../lib/format-count';
import { useNow } from '../../../lib/relative-time';
import { signInPath, useCurrentUser } from '../../../lib/session';
import { useInView } from '../../../lib/use-in-view';
import { Button } from '../../../ui/button';
import { flattenComments } from '../api/comment-cache';
import type { CommentOrder } from '../api/comment-keys';
import { commentListQuery } from '../api/get-comments';
import { useCommentPermission } from '../../posts/rights';
import { AddCommentForm } from './add-comment-form';
import { CommentItem } from './comment-item';
import styles from './comment-section.module.css';

interface CommentSectionProps {
  /** The post on the page (its count comes from the cached post, which every comment write updates). */
  post: Post;
}

const ORDERS: { value: CommentOrder; label: MessageDescriptor }[] = [
  { value: 'oldest', label: msg`Oldest` },
  { value: 'newest', label: msg`Newest` },
];

function countLabel(count: number): string {
  if (count === 0) return t`No comments yet`;
  const shown = formatCount(count);
  return plural(count, { one: `${shown} comment`, other: `${shown} comments` });
}

/**
 * A post's comments: the add-comment form, then the comments, oldest (or newest) first. The next page
 * loads as the end comes into view; "Load more comments" does the same from the keyboard.
 */
export function CommentSection({ post }: CommentSectionProps) {
  const { _ } = useLingui();
  const { t } = useLinguiMacro();
  const { data: me } = useCurrentUser();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const [order, setOrder] = useState<CommentOrder>('oldest');
  const [announcement, setAnnouncement] = useState('');
  const voteHintId = useId();
  const now = useNow();
  const query = useInfiniteQuery({ ...commentListQuery(post._id, order), placeholderData: keepPreviousData });
  const { data, error, isPending, isError, isPlaceholderData, hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const [sentinelRef, endInView] = useInView<HTMLDivElement>();

  useEffect(() => {
    if (endInView && hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [endInView, hasNextPage, isFetchingNextPage, isError, fetchNextPage]);

  const comments = flattenComments(data);
  const isPostAuthor = post.viewer.isAuthor || (me != null && me._id === post.userId);
  const permission = useCommentPermission(post);

  const announce = (message: string) => {
    // A repeated message is announced again only if the text changes.
    setAnnouncement((current) => (current === message ? `${message}\u00a0` : message));
  };

  let list;
  if (isPending) {
    list = (
      <p className={styles.status} role="status">
        <Trans>Loading comments…</Trans>
      </p>
    );
  } else if (isError && !data) {
    const problem = errorMessage(error);
    list = (
      <div className={styles.problem} role="alert">
        <p>
          <Trans>The comments could not be loaded: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  } else if (comments.length === 0) {
    list = (
      <p className={styles.status}>
        <Trans>Be the first to say something about this post.</Trans>
      </p>
    );
  } else {
    list = (
      <ol
        className={`${styles.list} ${isPlaceholderData ? styles.stale : ''}`}
        aria-label={t`Comments`}
        aria-busy={isFetchingNextPage || isPlaceholderData}
      >
        {comments.map((comment) => {
          const mine = me != null && comment.userId === me._id;
          return (
            <li key={comment._id} className={styles.item}>
              <CommentItem
                comment={comment}
                canEdit={mine}
                canDelete={mine || isPostAuthor}
                now={now}
                voteHintId={voteHintId}
                onEdited={() => announce(t`Comment edited.`)}
                onDeleted={() => {
                  announce(t`Comment deleted.`);
                  // Its menu button is gone with it: keep focus in the comments.
                  document.getElementById('comments')?.focus();
                }}
              />
            </li>
          );
        })}
      </ol>
    );
  }

  return (
    <section id="comments" className={styles.section} aria-labelledby="comments-title" tabIndex={-1}>
      <header className={styles.head}>
        <div className={styles.titleRow}>
          <h2 id="comments-title" className={styles.title}>
            <Trans>Comments</Trans>
          </h2>
          <p className={styles.count}>{countLabel(post.commentCount)}</p>
        </div>
        {comments.length > 1 && (
          <div className={styles.sort} role="group" aria-label={t`Sort comments`}>
            {ORDERS.map(({ value, label }) => (
              <button
                key={value}
                type="button"
                className={styles.sortButton}
                aria-pressed={order === value}
                onClick={() => setOrder(value)}
              >
                {_(label)}
              </button>
            ))}
          </div>
        )}
      </header>

      {me ? (
        permission.allowed ? (
          <AddCommentForm postId={post._id} me={me} onPosted={() => announce(t`Comment posted.`)} />
        ) : (
          // Comments off, or only for the people the author follows: said instead of the box.
          permission.message && <p className={styles.status}>{permission.message}</p>
        )
      ) : (
        // A visitor reading a shared post: sign in (or up) and come back to it.
        <p className={styles.status}>
          <Trans>
            <Link to={signInPath(here)}>Sign in</Link> or <Link to={signInPath(here, 'signup')}>sign up</Link> to
            comment.
          </Trans>
        </p>
      )}

      {list}

      {data && (hasNextPage || (isError && comments.length > 0)) && (
        <div ref={sentinelRef} className={styles.end}>
          {hasNextPage && (
            <Button
              variant="secondary"
              onClick={() => {
                if (!isFetchingNextPage) void fetchNextPage();
              }}
              aria-disabled={isFetchingNextPage || undefined}
            >
              {isFetchingNextPage ? t`Loading more comments…` : t`Load more comments`}
            </Button>
          )}
          {isError && (
            <p className={styles.status}>
              <Trans>The next comments could not be loaded.</Trans>
            </p>
          )}
        </div>
      )}

      <p id={voteHintId} hidden>
        <Trans>Your vote can be switched between up and down, but not withdrawn.</Trans>
      </p>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </section>
  );
}
