import { Trans, useLingui } from '@lingui/react/macro';
import type { Post, PostSeriesEntry } from '@share-arts/contract';
import { ChevronLeft, ChevronRight, Layers, Plus, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/session';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { toast } from '../../../ui/toast';
import { useRemoveWork } from '../api/series-mutations';
import { usePostSeries } from '../api/series-queries';
import { seriesPagePath } from '../api/series-paths';
import { partNumber, placeOf } from '../model/series-words';
import { AddToSeriesDialog } from './add-to-series-dialog';
import styles from './post-series.module.css';

const workPath = (postId: string) => `/posts/${encodeURIComponent(postId)}`;

/** One series the work is in: "Part 3 of Sketchbook · ‹ Previous · Next ›", and Remove for its author. */
function SeriesBar({ entry, postId, isAuthor }: { entry: PostSeriesEntry; postId: string; isAuthor: boolean }) {
  const { t } = useLingui();
  const { series, previous, next, chapter } = entry;
  const { position, count } = placeOf(entry);
  const part = partNumber(position, count);
  const [confirming, setConfirming] = useState(false);
  const remove = useRemoveWork();
  const title = series.title;
  const label = t`Series ${title}`;
  const seriesLink = (
    <Link to={seriesPagePath(series.username, series.slug)} className={styles.seriesLink}>
      {title}
    </Link>
  );

  return (
    <nav className={styles.bar} aria-label={label}>
      <p className={styles.where}>
        <Layers aria-hidden="true" size="1.05em" className={styles.icon} />
        <span>
          {part ? (
            <Trans>
              Part {part} of {seriesLink}
            </Trans>
          ) : (
            <Trans>In {seriesLink}</Trans>
          )}
          {chapter && <span className={styles.chapter}> · {chapter}</span>}
        </span>
      </p>
      <p className={styles.steps}>
        {previous ? (
          <Link to={workPath(previous)} className={styles.step} rel="prev">
            <ChevronLeft aria-hidden="true" size="1.05em" />
            <Trans>
              Previous<span className="visually-hidden"> work in {title}</span>
            </Trans>
          </Link>
        ) : (
          <span className={styles.stepNone}>
            <Trans>First work</Trans>
          </span>
        )}
        <span aria-hidden="true" className={styles.dot}>
          ·
        </span>
        {next ? (
          <Link to={workPath(next)} className={styles.step} rel="next">
            <Trans>
              Next<span className="visually-hidden"> work in {title}</span>
            </Trans>
            <ChevronRight aria-hidden="true" size="1.05em" />
          </Link>
        ) : (
          <span className={styles.stepNone}>
            <Trans>Last work</Trans>
          </span>
        )}
        {isAuthor && (
          <Button
            variant="secondary"
            className={styles.remove}
            onClick={() => setConfirming(true)}
            aria-label={t`Remove from series ${title}`}
          >
            <X aria-hidden="true" size="1em" />
            <Trans>Remove</Trans>
          </Button>
        )}
      </p>
      {confirming && (
        <ConfirmDialog
          title={t`Remove from series?`}
          confirmLabel={t`Remove`}
          busyLabel={t`Removing…`}
          busy={remove.isPending}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(
              { seriesId: series._id, postId },
              {
                onSuccess: () => {
                  setConfirming(false);
                  toast.success(t`Removed from ${title}`);
                },
                onError: (error) => toast.error(errorMessage(error)),
              },
            )
          }
        >
          <Trans>This work leaves {title}. The work itself stays on your profile.</Trans>
        </ConfirmDialog>
      )}
    </nav>
  );
}

/**
 * On a work's page: a bar for each series it is in, with the works before and after it; its author also gets
 * "Add to series". Nothing for a work in no series (but Add for its author), nor for a work from another server.
 */
export function PostSeries({ post }: { post: Post }) {
  const { data: me } = useCurrentUser();
  const isAuthor = post.viewer.isAuthor || (me != null && me._id === post.userId);
  // A work from another server is never in a series here.
  const local = post.origin === undefined;
  const { data: entries, isError } = usePostSeries(post._id, local);
  const [adding, setAdding] = useState(false);
  if (!local) return null;
  const list = entries ?? [];
  // A failed load leaves the page as it was without series: the work itself matters more than its links.
  if (isError && !isAuthor) return null;

  return (
    <>
      {list.map((entry) => (
        <SeriesBar key={entry.series._id} entry={entry} postId={post._id} isAuthor={isAuthor} />
      ))}
      {isAuthor && me && (
        <div className={styles.add}>
          <Button variant="secondary" onClick={() => setAdding(true)} disabled={entries === undefined && !isError}>
            <Plus aria-hidden="true" size="1.05em" />
            <Trans>Add to series</Trans>
          </Button>
          {isError && (
            <p className={styles.problem}>
              <Trans>The series of this work could not be loaded.</Trans>
            </p>
          )}
        </div>
      )}
      {adding && me && (
        <AddToSeriesDialog
          postId={post._id}
          username={me.username}
          already={new Set(list.map((entry) => entry.series._id))}
          onClose={() => setAdding(false)}
        />
      )}
    </>
  );
}
