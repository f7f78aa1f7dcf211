import { ArrowLeft, ChartNoAxesColumn } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { NotFound } from '../../../ui/not-found';
import { PageHeading } from '../../../ui/page-heading';
import { usePostInsights, type InsightsWindow } from '../api/insights-queries';
import {
  CountedNote,
  DailyCharts,
  POST_METRICS,
  SourcesTable,
  Totals,
  WindowChoice,
} from '../components/insights-view';
import viewStyles from '../components/insights-view.module.css';
import styles from './insights-page.module.css';

/** /insights/posts/:postId — one of the artist's works (issue 42): anyone else's answers "not found". */
export default function PostInsightsPage() {
  useDocumentTitle('Work insights');
  const { postId = '' } = useParams();
  const [days, setDays] = useState<InsightsWindow>(30);
  const { data, error, isPending, refetch } = usePostInsights(postId, days);

  if (!data && error instanceof ApiError && error.status === 404) {
    return (
      <NotFound icon={ChartNoAxesColumn} title="No insights here">
        Insights are shown to a work&apos;s artist only. <Link to="/insights">Your insights</Link>
      </NotFound>
    );
  }

  return (
    <div className={styles.page}>
      <nav aria-label="Insights" className={styles.links}>
        <Link to="/insights" className={styles.link}>
          <ArrowLeft aria-hidden="true" size="1.1em" />
          All insights
        </Link>
        <Link to={`/posts/${postId}`} className={styles.link}>
          The work
        </Link>
      </nav>
      <PageHeading title="Work insights" description="How this work of yours is seen." />
      <WindowChoice days={days} onChange={setDays} />
      {isPending ? (
        <p role="status" className={viewStyles.muted}>
          Loading insights…
        </p>
      ) : !data ? (
        <div role="alert" className={styles.problem}>
          <p>Insights could not be loaded: {errorMessage(error)}</p>
          <Button variant="secondary" onClick={() => void refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <>
          <Totals
            items={[
              { label: 'Views', value: data.totals.views },
              { label: 'Likes', value: data.totals.likes },
              { label: 'Saves', value: data.totals.saves },
              { label: 'Collections', value: data.totals.collections },
            ]}
          />
          <DailyCharts daily={data.daily} metrics={POST_METRICS} days={data.days} />
          <SourcesTable sources={data.sources} title="Where its views came from" />
          <CountedNote />
        </>
      )}
    </div>
  );
}
