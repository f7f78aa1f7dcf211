import { Trans, useLingui } from '@lingui/react/macro';
import type { Post, Sort } from '@share-arts/contract';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useInView } from '../../../lib/use-in-view';
import { Button } from '../../../ui/button';
import { toast } from '../../../ui/toast';
import { postListQuery } from '../api/get-post-list';
import type { PostListSource } from '../api/post-keys';
import styles from './post-list.module.css';

/**
 * An `arrange` for PagedPosts that shows these works first, in their order, and leaves them out of the
 * pages below (an artist's pinned works, in the grid and in the list alike).
 */
export function usePinnedFirst(pinned: readonly Post[] | undefined): (paged: Post[]) => Post[] {
  return useCallback(
    (paged: Post[]) => {
      if (!pinned || pinned.length === 0) return paged;
      const pinnedIds = new Set(pinned.map((post) => post._id));
      return [...pinned, ...paged.filter((post) => !pinnedIds.has(post._id))];
    },
    [pinned],
  );
}

export interface PagedPostsView {
  /** The posts of every page loaded so far, in order. */
  posts: Post[];
  /** More pages exist (the set's size is then unknown). */
  hasMore: boolean;
  /** A next page or another sort order is loading. */
  busy: boolean;
  /** The class that dims the posts of the previous sort order while the new one loads. */
  staleClassName?: string;
}

interface PagedPostsProps {
  source: PostListSource;
  sort: Sort;
  /** What to show when there are no posts at all. */
  empty: ReactNode;
  /** Shown while loading as well as the first page (e.g. a profile's pinned works). */
  pending?: boolean;
  /** Turns the loaded posts into what is shown (used when there are some). */
  arrange?: (posts: Post[]) => Post[];
  children: (view: PagedPostsView) => ReactNode;
}

/**
 * The paging shared by the list of cards and the grid of works: the query (the current posts stay on
 * screen while another sort order loads), the next page as the end comes into view, a "Load more posts"
 * button for keyboards and when observers are not available, and the spec's loading and error states (a
 * failed load's message as a toast, once per failure).
 */
export function PagedPosts({ source, sort, empty, pending = false, arrange, children }: PagedPostsProps) {
  const { t } = useLingui();
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

  const toasted = useRef<unknown>(null);
  useEffect(() => {
    if (error && toasted.current !== error) {
      toasted.current = error;
      toast.error(errorMessage(error));
    }
  }, [error]);

  // Kept while the pages are the same: the grid lays its rows out from this array.
  const posts = useMemo(() => {
    const loaded = data?.pages.flatMap((page) => page.posts) ?? [];
    return arrange ? arrange(loaded) : loaded;
  }, [data, arrange]);

  if (isPending || pending) {
    return (
      <p className={styles.status} role="status">
        <Trans>Loading posts…</Trans>
      </p>
    );
  }
  if (isError && !data) {
    const problem = errorMessage(error);
    return (
      <div className={styles.problem} role="alert">
        <p>
          <Trans>The posts could not be loaded: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }

  if (posts.length === 0) return <>{empty}</>;

  return (
    <>
      {children({
        posts,
        hasMore: hasNextPage,
        busy: isFetchingNextPage || isPlaceholderData,
        staleClassName: isPlaceholderData ? styles.stale : undefined,
      })}
      <div ref={sentinelRef} className={styles.end}>
        {hasNextPage ? (
          <Button
            variant="secondary"
            onClick={() => void fetchNextPage()}
            aria-disabled={isFetchingNextPage || undefined}
          >
            {isFetchingNextPage ? t`Loading more posts…` : t`Load more posts`}
          </Button>
        ) : (
          <p className={styles.status}>
            <Trans>You are all caught up.</Trans>
          </p>
        )}
        {isError && hasNextPage && (
          <p className={styles.status}>
            <Trans>The next posts could not be loaded.</Trans>
          </p>
        )}
      </div>
    </>
  );
}
