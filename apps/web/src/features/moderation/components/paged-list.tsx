import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import styles from './moderation.module.css';

interface PagedListProps {
  query: {
    isPending: boolean;
    isError: boolean;
    error: unknown;
    refetch: () => unknown;
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage: () => unknown;
  };
  count: number;
  empty: string;
  children: ReactNode;
}

/** The loading, error and empty states around a paged list, and its Load more. */
export function PagedList({ query, count, empty, children }: PagedListProps) {
  const { t } = useLingui();
  if (query.isPending) {
    return (
      <p className={styles.status} role="status">
        <Trans>Loading…</Trans>
      </p>
    );
  }
  if (query.isError && count === 0) {
    const problem = errorMessage(query.error);
    return (
      <div role="alert">
        <p>
          <Trans>It could not be loaded: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }
  if (count === 0) return <p className={styles.status}>{empty}</p>;
  return (
    <>
      {children}
      {query.hasNextPage && (
        <Button variant="secondary" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
          {query.isFetchingNextPage ? t`Loading…` : t`Load more`}
        </Button>
      )}
    </>
  );
}
