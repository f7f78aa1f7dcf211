import { Plural, Trans, useLingui } from '@lingui/react/macro';
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

/** /insights — the signed-in artist's own counts (issue 42): their works and profile, over 7, 30 or 90 days. */
export default function InsightsPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Insights`);
  const [days, setDays] = useState<InsightsWindow>(30);
  const { data, error, isPending, refetch } = useProfileInsights(days);
  const problem = error ? errorMessage(error) : '';

  return (
    <div className={styles.page}>
      <PageHeading title={t`Insights`} description={t`How your works and profile are seen.`} />
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
              { label: t`Views of works`, value: data.workViews },
              { label: t`Profile views`, value: data.totals.views },
              { label: t`Likes`, value: data.totals.likes },
              { label: t`Saves`, value: data.totals.saves },
              { label: t`Collections`, value: data.totals.collections },
            ]}
          />
          <DailyCharts daily={data.daily} metrics={PROFILE_METRICS} days={data.days} />
          <section className={viewStyles.section} aria-labelledby="insights-works">
            <h2 id="insights-works" className={viewStyles.sectionTitle}>
              <Trans>Works seen most</Trans>
            </h2>
            {data.works.length === 0 ? (
              <p className={viewStyles.muted}>
                <Trans>None of your works was seen in this period yet.</Trans>
              </p>
            ) : (
              <ol className={styles.works}>
                {data.works.map((work) => {
                  const views = work.views;
                  const likes = work.likes;
                  return (
                    <li key={work._id}>
                      <Link to={`/insights/posts/${work._id}`} className={styles.work}>
                        {work.thumbnail ? (
                          <img src={work.thumbnail} alt="" className={styles.thumb} loading="lazy" />
                        ) : (
                          <span className={styles.thumb} aria-hidden="true" />
                        )}
                        <span className={styles.workText}>{work.content || t`Untitled work`}</span>
                        <span className={styles.workCounts}>
                          <Plural value={views} one="# view" other="# views" /> ·{' '}
                          <Plural value={likes} one="# like" other="# likes" />
                        </span>
                      </Link>
                    </li>
                  );
                })}
              </ol>
            )}
          </section>
          <SourcesTable sources={data.sources} title={t`Where your profile's views came from`} />
          <CountedNote>
            {' '}
            <Trans>Each work's page has its own insights, with where its views came from.</Trans>
          </CountedNote>
        </>
      )}
    </div>
  );
}
