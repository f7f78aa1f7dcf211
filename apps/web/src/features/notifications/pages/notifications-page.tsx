import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { Notification } from '@share-arts/contract';
import { BellOff, CheckCheck } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useNow } from '../../../lib/relative-time';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useInView } from '../../../lib/use-in-view';
import { Button } from '../../../ui/button';
import { useNotifications } from '../api/get-notifications';
import { useMarkRead } from '../api/mark-read';
import { useUnreadCount } from '../api/unread-count';
import { NotificationItem } from '../components/notification-item';
import { PushCard } from '../components/push-card';
import styles from './notifications-page.module.css';

function EmptyNotifications() {
  return (
    <section className={styles.empty} aria-labelledby="empty-notifications-title">
      <BellOff aria-hidden="true" size="2.25em" className={styles.emptyIcon} />
      <h2 id="empty-notifications-title" className={styles.emptyTitle}>
        <Trans>No notifications yet</Trans>
      </h2>
      <p className={styles.emptyText}>
        <Trans>
          When someone likes your posts, comments on them, upvotes your comments or follows you, you will see it here.
        </Trans>
      </p>
    </section>
  );
}

/** /notifications — likes, comments, upvotes and follows, grouped, newest first. */
export default function NotificationsPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Notifications`);
  const unread = useUnreadCount();
  const { data, error, isPending, isError, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } =
    useNotifications();
  const { mutate: markRead } = useMarkRead();
  const now = useNow();
  const [sentinelRef, endInView] = useInView<HTMLDivElement>();
  const [status, setStatus] = useState('');

  useEffect(() => {
    if (endInView && hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [endInView, hasNextPage, isFetchingNextPage, isError, fetchNextPage]);

  const open = useCallback(
    (notification: Notification) => {
      if (!notification.read) markRead({ key: notification.key });
    },
    [markRead],
  );

  const notifications = data?.pages.flatMap((page) => page.notifications) ?? [];
  const anyUnread = unread > 0 || notifications.some((notification) => !notification.read);

  const markAll = () => {
    if (!anyUnread) return;
    markRead({ all: true }, { onSuccess: () => setStatus(t`All notifications marked as read.`) });
  };

  let content;
  if (isPending) {
    content = (
      <p className={styles.status} role="status">
        <Trans>Loading notifications…</Trans>
      </p>
    );
  } else if (isError && !data) {
    const problem = errorMessage(error);
    content = (
      <div className={styles.problem} role="alert">
        <p>
          <Trans>Your notifications could not be loaded: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  } else if (notifications.length === 0) {
    content = <EmptyNotifications />;
  } else {
    content = (
      <>
        <ul className={styles.list}>
          {notifications.map((notification) => (
            <NotificationItem key={notification.key} notification={notification} now={now} onOpen={open} />
          ))}
        </ul>
        <div ref={sentinelRef} className={styles.end}>
          {hasNextPage ? (
            <Button
              variant="secondary"
              onClick={() => void fetchNextPage()}
              aria-disabled={isFetchingNextPage || undefined}
            >
              {isFetchingNextPage ? t`Loading more…` : t`Load more`}
            </Button>
          ) : (
            <p className={styles.status}>
              <Trans>That is everything.</Trans>
            </p>
          )}
          {isError && hasNextPage && (
            <p className={styles.status}>
              <Trans>The next notifications could not be loaded.</Trans>
            </p>
          )}
        </div>
      </>
    );
  }

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div className={styles.heading}>
          <h1 className={styles.title}>
            <Trans>Notifications</Trans>
          </h1>
          <p className={styles.description}>
            {unread > 0 ? t`${plural(unread, { other: '# unread' })}` : t`Likes, comments, upvotes and new followers.`}
          </p>
        </div>
        {(notifications.length > 0 || unread > 0) && (
          <Button
            variant="secondary"
            onClick={markAll}
            aria-disabled={!anyUnread || undefined}
            className={styles.markAll}
          >
            <CheckCheck aria-hidden="true" size="1.15em" />
            <Trans>Mark all as read</Trans>
          </Button>
        )}
      </header>
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {/* Web Push on this device (issue 44): hidden where the browser cannot be pushed. */}
      <PushCard />
      {content}
    </div>
  );
}
