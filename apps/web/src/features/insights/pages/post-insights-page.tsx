import { ArrowLeft, ChartNoAxesColumn } from 'lucide-react';
import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  useDocumentTitle(t`Work insights`);
  const { postId = '' } = useParams();
  const [days, setDays] = useState<InsightsWindow>(30);
  const { data, error, isPending, refetch } = usePostInsights(postId, days);
  const problem = error ? errorMessage(error) : '';

  if (!data && error instanceof ApiError && error.status === 404) {
    return (
      <NotFound icon={ChartNoAxesColumn} title={t`No insights here`}>
        <Trans>
          Insights are shown to a work&apos;s artist only. <Link to="/insights">Your insights</Link>
        </Trans>
      </NotFound>
    );
  }

  return (
    <div className={styles.page}>
      <nav aria-label={t`Insights`} className={styles.links}>
        <Link to="/insights" className={styles.link}>
          <ArrowLeft aria-hidden="true" size="1.1em" className={styles.back} />
          <Trans>All insights</Trans>
        </Link>
        <Link to={`/posts/${postId}`} className={styles.link}>
          <Trans>The work</Trans>
        </Link>
      </nav>
      <PageHeading title={t`Work insights`} description={t`How this work of yours is seen.`} />
      <WindowChoice days={days} onChange={setDays} />
      {isPending ? (
        <p role="status" className={viewStyles.muted}>
          <Trans>Loading insights…</Trans>
        </p>
      ) : !data ? (
        <div role="alert" className={styles.problem}>
          <p>
            <Trans>Insights could not be loaded: {problem}</Trans>
          </p>
          <Button variant="secondary" onClick={() => void refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      ) : (
        <>
          <Totals
            items={[
              { label: t`Views`, value: data.totals.views },
              { label: t`Likes`, value: data.totals.likes },
              { label: t`Saves`, value: data.totals.saves },
              { label: t`Collections`, value: data.totals.collections },
            ]}
          />
          <DailyCharts daily={data.daily} metrics={POST_METRICS} days={data.days} />
          <SourcesTable sources={data.sources} title={t`Where its views came from`} />
          <CountedNote />
        </>
      )}
    </div>
  );
}
