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
import styles from './notifications-page.module.css';

function EmptyNotifications() {
  return (
    <section className={styles.empty} aria-labelledby="empty-notifications-title">
      <BellOff aria-hidden="true" size="2.25em" className={styles.emptyIcon} />
      <h2 id="empty-notifications-title" className={styles.emptyTitle}>
        No notifications yet
      </h2>
      <p className={styles.emptyText}>
        When someone likes your posts, comments on them, upvotes your comments or follows you, you will see it here.
      </p>
    </section>
  );
}

/** /notifications — likes, comments, upvotes and follows, grouped, newest first. */
export default function NotificationsPage() {
  useDocumentTitle('Notifications');
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
    markRead({ all: true }, { onSuccess: () => setStatus('All notifications marked as read.') });
  };

  let content;
  if (isPending) {
    content = (
      <p className={styles.status} role="status">
        Loading notifications…
      </p>
    );
  } else if (isError && !data) {
    content = (
      <div className={styles.problem} role="alert">
        <p>Your notifications could not be loaded: {errorMessage(error)}</p>
        <Button variant="secondary" onClick={() => void refetch()}>
          Try again
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
              {isFetchingNextPage ? 'Loading more…' : 'Load more'}
            </Button>
          ) : (
            <p className={styles.status}>That is everything.</p>
          )}
          {isError && hasNextPage && <p className={styles.status}>The next notifications could not be loaded.</p>}
        </div>
      </>
    );
  }

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div className={styles.heading}>
          <h1 className={styles.title}>Notifications</h1>
          <p className={styles.description}>
            {unread > 0 ? `${unread} unread` : 'Likes, comments, upvotes and new followers.'}
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
            Mark all as read
          </Button>
        )}
      </header>
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {content}
    </div>
  );
}
