import { Trans, useLingui } from '@lingui/react/macro';
import type { Series } from '@share-arts/contract';
import { useEffect, useMemo } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useInView } from '../../../lib/use-in-view';
import { Button } from '../../../ui/button';
import { PostGridView } from '../../posts/grid';
import { chapterRuns, uniqueById, useSeriesWorks } from '../../series';
import styles from './series-works.module.css';

/**
 * The works of a series in the owner's order as the portfolio's grid (each picture at its own shape), a heading
 * before each chapter, the next page as the end comes into view or with "Load more works".
 */
export function SeriesWorks({ series }: { series: Series }) {
  const { t } = useLingui();
  const title = series.title;
  const { data, isPending, isError, error, refetch, hasNextPage, isFetchingNextPage, fetchNextPage } = useSeriesWorks(
    series._id,
  );
  const [sentinelRef, endInView] = useInView<HTMLDivElement>();
  useEffect(() => {
    if (endInView && hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [endInView, hasNextPage, isFetchingNextPage, isError, fetchNextPage]);

  const runs = useMemo(() => {
    const works = uniqueById(data?.pages.flatMap((page) => page.works) ?? [], (work) => work.post._id);
    return chapterRuns(works, (work) => work.chapter).map((run) => ({
      ...run,
      posts: run.items.map((work) => work.post),
    }));
  }, [data]);

  if (isPending) {
    return (
      <p className={styles.status} role="status">
        <Trans>Loading works…</Trans>
      </p>
    );
  }
  if (isError && !data) {
    const problem = errorMessage(error);
    return (
      <div className={styles.problem} role="alert">
        <p>
          <Trans>The works of this series could not be loaded: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }
  if (runs.length === 0) {
    return (
      <p className={styles.empty}>
        {series.viewer.isOwner
          ? t`This series has no works yet. Open one of your works and choose “Add to series”, or pick the series when you post.`
          : t`There are no works in this series yet.`}
      </p>
    );
  }

  return (
    <>
      {runs.map((run, index) => (
        <section
          key={`${run.start}:${run.chapter ?? ''}`}
          className={styles.chapter}
          // A chapter is a named section; the works before any chapter are the grid alone.
          aria-labelledby={run.chapter ? `series-chapter-${index}` : undefined}
        >
          {run.chapter && (
            <h2 id={`series-chapter-${index}`} className={styles.chapterTitle}>
              {run.chapter}
            </h2>
          )}
          <PostGridView
            posts={run.posts}
            label={run.chapter ? `${series.title}: ${run.chapter}` : t`Works in ${title}`}
            priority={index === 0}
            busy={isFetchingNextPage}
          />
        </section>
      ))}
      <div ref={sentinelRef} className={styles.end}>
        {hasNextPage ? (
          <Button
            variant="secondary"
            onClick={() => void fetchNextPage()}
            aria-disabled={isFetchingNextPage || undefined}
          >
            {isFetchingNextPage ? t`Loading more works…` : t`Load more works`}
          </Button>
        ) : (
          <p className={styles.status}>
            <Trans>That is every work in this series.</Trans>
          </p>
        )}
        {isError && hasNextPage && (
          <p className={styles.status}>
            <Trans>The next works could not be loaded.</Trans>
          </p>
        )}
      </div>
    </>
  );
}
