import type { Sort } from '@share-arts/contract';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useInView } from '../../../lib/use-in-view';
import { Button } from '../../../ui/button';
import { toast } from '../../../ui/toast';
import { postListQuery } from '../api/get-post-list';
import type { PostListSource } from '../api/post-keys';
import { PostCard } from './post-card';
import styles from './post-list.module.css';

interface PostListProps {
  source: PostListSource;
  sort: Sort;
  /** Accessible name of the feed, e.g. "Posts from people you follow". */
  label: string;
  /** What to show when there are no posts at all. */
  empty: ReactNode;
}

/**
 * A paged list of post cards (WAI-ARIA feed). The next page loads as the end comes into view; a
 * "Load more posts" button does the same for keyboards and when observers are not available.
 */
export function PostList({ source, sort, label, empty }: PostListProps) {
  // Keep the current cards on screen while another sort order loads.
  const query = useInfiniteQuery({ ...postListQuery(source, sort), placeholderData: keepPreviousData });
  const {
    data,
    error,
    isPending,
    isError,
    isPlaceholderData,
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
    refetch,
  } = query;
  const [sentinelRef, endInView] = useInView<HTMLDivElement>();

  useEffect(() => {
    if (endInView && hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [endInView, hasNextPage, isFetchingNextPage, isError, fetchNextPage]);

  // The spec: a failed load shows the server's message as a toast (once per failure).
  const toasted = useRef<unknown>(null);
  useEffect(() => {
    if (error && toasted.current !== error) {
      toasted.current = error;
      toast.error(errorMessage(error));
    }
  }, [error]);

  if (isPending) {
    return (
      <p className={styles.status} role="status">
        Loading posts…
      </p>
    );
  }
  if (isError && !data) {
    return (
      <div className={styles.problem} role="alert">
        <p>The posts could not be loaded: {errorMessage(error)}</p>
        <Button variant="secondary" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  const posts = data.pages.flatMap((page) => page.posts);
  if (posts.length === 0) return <>{empty}</>;
  const total = hasNextPage ? -1 : posts.length;

  return (
    <>
      <div
        role="feed"
        aria-label={label}
        aria-busy={isFetchingNextPage || isPlaceholderData}
        className={`${styles.feed} ${isPlaceholderData ? styles.stale : ''}`}
      >
        {posts.map((post, index) => (
          <PostCard key={post._id} post={post} priority={index === 0} posinset={index + 1} setsize={total} />
        ))}
      </div>
      <div ref={sentinelRef} className={styles.end}>
        {hasNextPage ? (
          <Button
            variant="secondary"
            onClick={() => void fetchNextPage()}
            aria-disabled={isFetchingNextPage || undefined}
          >
            {isFetchingNextPage ? 'Loading more posts…' : 'Load more posts'}
          </Button>
        ) : (
          <p className={styles.status}>You are all caught up.</p>
        )}
        {isError && hasNextPage && <p className={styles.status}>The next posts could not be loaded.</p>}
      </div>
    </>
  );
}
