import { Trans, useLingui } from '@lingui/react/macro';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { useUserSeries } from '../api/series-queries';
import { seriesPagePath } from '../api/series-paths';
import { workCountText } from '../model/series-words';
import { CreateSeriesDialog } from './create-series-dialog';
import { SeriesCover } from './series-cover';
import styles from './series-row.module.css';

/** The width a card's cover is drawn at (also in series-row.module.css). */
const COVER_SIZES = '176px';

/**
 * A profile's series as a row of cards (cover, title, number of works), each opening the series' page; the
 * owner also gets "New series". Nothing at all on the profile of an artist without any series.
 */
export function SeriesRow({ username, isOwn }: { username: string; isOwn: boolean }) {
  const { t } = useLingui();
  const { series, isPending, isError, error, refetch, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useUserSeries(username);
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();

  if (isPending) return null;
  if (isError && series.length === 0) {
    const problem = errorMessage(error);
    return (
      <section className={styles.section} aria-labelledby="profile-series-title">
        <h2 id="profile-series-title" className={styles.title}>
          <Trans>Series</Trans>
        </h2>
        <div className={styles.problem} role="alert">
          <p>
            <Trans>The series could not be loaded: {problem}</Trans>
          </p>
          <Button variant="secondary" onClick={() => void refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      </section>
    );
  }
  if (series.length === 0 && !isOwn) return null;

  return (
    <section className={styles.section} aria-labelledby="profile-series-title">
      <div className={styles.heading}>
        <h2 id="profile-series-title" className={styles.title}>
          <Trans>Series</Trans>
        </h2>
        {isOwn && (
          <Button variant="secondary" className={styles.new} onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" size="1.05em" />
            <Trans>New series</Trans>
          </Button>
        )}
      </div>
      {series.length === 0 ? (
        <p className={styles.empty}>
          <Trans>
            Gather works into a series, in the order you choose: a comic, a sketchbook, a study. Readers can follow a
            series alone.
          </Trans>
        </p>
      ) : (
        <ul className={styles.cards}>
          {series.map((each) => (
            <li key={each._id} className={styles.card}>
              <Link to={seriesPagePath(each.owner.username, each.slug)} className={styles.cardLink}>
                <SeriesCover series={each} sizes={COVER_SIZES} />
                <span className={styles.cardTitle}>{each.title}</span>
                <span className={styles.cardCount}>{workCountText(each.workCount)}</span>
              </Link>
            </li>
          ))}
          {hasNextPage && (
            <li className={styles.moreCard}>
              <Button
                variant="secondary"
                onClick={() => void fetchNextPage()}
                aria-disabled={isFetchingNextPage || undefined}
              >
                {isFetchingNextPage ? t`Loading…` : t`More series`}
              </Button>
            </li>
          )}
        </ul>
      )}
      {creating && (
        <CreateSeriesDialog
          onClose={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false);
            void navigate(seriesPagePath(created.owner.username, created.slug));
          }}
        />
      )}
    </section>
  );
}
