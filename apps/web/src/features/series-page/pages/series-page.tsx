import { Trans, useLingui } from '@lingui/react/macro';
import { Layers } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { NotFound } from '../../../ui/not-found';
import { toast } from '../../../ui/toast';
import { seriesKeys, seriesPagePath, seriesPaths, useSeries } from '../../series';
import { EditSeriesDialog } from '../components/edit-series-dialog';
import { SeriesHeader } from '../components/series-header';
import { SeriesReorder } from '../components/series-reorder';
import { SeriesWorks } from '../components/series-works';
import styles from './series-page.module.css';

/**
 * /:username/series/:slug — a series: its title, owner and description, Follow series, and its works in the
 * owner's order as the portfolio's grid, in chapters. Its owner edits it and reorders its works (by drag or by
 * keyboard) here. A feature of its own: it composes the series feature and the posts' grid, which the composer
 * (posts) needs the other way round.
 */
export default function SeriesPage() {
  const { t } = useLingui();
  const { username = '', slug = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: series, isPending, error, refetch } = useSeries(username, slug);
  const [reordering, setReordering] = useState(false);
  const [editing, setEditing] = useState(false);
  useDocumentTitle(series?.title ?? t`Series`);

  if (isPending) {
    return (
      <p className={styles.status} role="status">
        <Trans>Loading series…</Trans>
      </p>
    );
  }
  if (!series) {
    if (error instanceof ApiError && error.status === 404) {
      return (
        <NotFound icon={Layers} title={t`Series not found`}>
          <Trans>
            It may have been deleted or renamed, or the link is not quite right. The artist’s profile lists their
            series.
          </Trans>
        </NotFound>
      );
    }
    const problem = errorMessage(error);
    return (
      <div className={styles.problem} role="alert">
        <p>
          <Trans>The series could not be loaded: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }
  // One address per series, whatever the letter case of the link's username.
  if (series.owner.username !== username) {
    return <Navigate to={seriesPagePath(series.owner.username, series.slug)} replace />;
  }

  return (
    <div className={styles.page}>
      {/* Feed readers find the series' Atom feed here (React puts the link in the document's head). */}
      <link
        rel="alternate"
        type="application/atom+xml"
        title={`${series.title} by @${series.owner.username}`}
        href={seriesPaths.feed(series.owner.username, series.slug)}
      />
      <SeriesHeader
        series={series}
        reordering={reordering && series.viewer.isOwner}
        onReorder={(on) => {
          setReordering(on);
          // The moves were shown as they were made; the grid reads the order (and its pages) afresh.
          if (!on) void queryClient.invalidateQueries({ queryKey: seriesKeys.works(series._id) });
        }}
        onEdit={() => setEditing(true)}
      />
      {/* Keyed by series, so another series starts on its own first page. */}
      {reordering && series.viewer.isOwner ? (
        <SeriesReorder key={series._id} series={series} />
      ) : (
        <SeriesWorks key={series._id} series={series} />
      )}
      {editing && (
        <EditSeriesDialog
          series={series}
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            toast.success(t`Series saved`);
            if (saved.slug !== series.slug) {
              void navigate(seriesPagePath(saved.owner.username, saved.slug), { replace: true });
            }
          }}
          onDeleted={() => {
            setEditing(false);
            const title = series.title;
            toast.success(t`${title} was deleted`);
            void navigate(`/${encodeURIComponent(series.owner.username)}`, { replace: true });
          }}
        />
      )}
    </div>
  );
}
