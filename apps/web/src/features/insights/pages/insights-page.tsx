import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { PageHeading } from '../../../ui/page-heading';
import { useProfileInsights, type InsightsWindow } from '../api/insights-queries';
import {
  CountedNote,
  DailyCharts,
  PROFILE_METRICS,
  SourcesTable,
  Totals,
  WindowChoice,
} from '../components/insights-view';
import viewStyles from '../components/insights-view.module.css';
import styles from './insights-page.module.css';

const numberFormat = new Intl.NumberFormat();

/** /insights — the signed-in artist's own counts (issue 42): their works and profile, over 7, 30 or 90 days. */
export default function InsightsPage() {
  useDocumentTitle('Insights');
  const [days, setDays] = useState<InsightsWindow>(30);
  const { data, error, isPending, refetch } = useProfileInsights(days);

  return (
    <div className={styles.page}>
      <PageHeading title="Insights" description="How your works and profile are seen." />
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
              { label: 'Views of works', value: data.workViews },
              { label: 'Profile views', value: data.totals.views },
              { label: 'Likes', value: data.totals.likes },
              { label: 'Saves', value: data.totals.saves },
              { label: 'Collections', value: data.totals.collections },
            ]}
          />
          <DailyCharts daily={data.daily} metrics={PROFILE_METRICS} days={data.days} />
          <section className={viewStyles.section} aria-labelledby="insights-works">
            <h2 id="insights-works" className={viewStyles.sectionTitle}>
              Works seen most
            </h2>
            {data.works.length === 0 ? (
              <p className={viewStyles.muted}>None of your works was seen in this period yet.</p>
            ) : (
              <ol className={styles.works}>
                {data.works.map((work) => (
                  <li key={work._id}>
                    <Link to={`/insights/posts/${work._id}`} className={styles.work}>
                      {work.thumbnail ? (
                        <img src={work.thumbnail} alt="" className={styles.thumb} loading="lazy" />
                      ) : (
                        <span className={styles.thumb} aria-hidden="true" />
                      )}
                      <span className={styles.workText}>{work.content || 'Untitled work'}</span>
                      <span className={styles.workCounts}>
                        {numberFormat.format(work.views)} {work.views === 1 ? 'view' : 'views'} ·{' '}
                        {numberFormat.format(work.likes)} {work.likes === 1 ? 'like' : 'likes'}
                      </span>
                    </Link>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <SourcesTable sources={data.sources} title="Where your profile's views came from" />
          <CountedNote> Each work's page has its own insights, with where its views came from.</CountedNote>
        </>
      )}
    </div>
  );
}
