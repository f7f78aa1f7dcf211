import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/session';
import { toast } from '../../../ui/toast';
import { addWorkToSeries } from '../api/series-mutations';
import { useUserSeries } from '../api/series-queries';
import { SERIES_TEXT_MAX } from '../model/limits';
import styles from './series-choice.module.css';

/** The composer's choice of a series for the work it posts, and what applies it once the work exists. */
export interface SeriesChoice {
  seriesId: string;
  chapter: string;
  set: (seriesId: string, chapter: string) => void;
  /** Adds the posted work to the chosen series (when one is chosen); says how that went in a toast. */
  applyTo: (postId: string) => void;
}

/** The state of the composer's "Add to series" (none chosen at first). */
export function useSeriesChoice(): SeriesChoice {
  const queryClient = useQueryClient();
  const [{ seriesId, chapter }, setState] = useState({ seriesId: '', chapter: '' });
  const set = useCallback((id: string, text: string) => setState({ seriesId: id, chapter: text }), []);
  const applyTo = useCallback(
    (postId: string) => {
      if (!seriesId) return;
      addWorkToSeries(queryClient, { seriesId, postId, chapter }).then(
        (series) => {
          const title = series.title;
          toast.success(t`Added to ${title}`);
        },
        (error: unknown) => {
          const problem = errorMessage(error);
          toast.error(t`Your work was posted, but not added to the series: ${problem} Add it from the work’s page.`);
        },
      );
    },
    [queryClient, seriesId, chapter],
  );
  return { seriesId, chapter, set, applyTo };
}

/**
 * "Add to series" in the composer: one of the artist's series (or none) and an optional chapter; the work goes
 * in once it is posted. Not shown to an artist without any series (the work's page can create one).
 */
export function SeriesChoiceField({ choice, disabled }: { choice: SeriesChoice; disabled: boolean }) {
  const { t } = useLingui();
  const { data: me } = useCurrentUser();
  const { series, isError } = useUserSeries(me?.username ?? '');
  const id = useId();
  if (series.length === 0) {
    return isError ? (
      <p className={styles.hint}>
        <Trans>Your series could not be loaded; add the work from its page.</Trans>
      </p>
    ) : null;
  }
  return (
    <div className={styles.field}>
      <label htmlFor={`${id}-series`}>
        <Trans>Add to series (optional)</Trans>
      </label>
      <select
        id={`${id}-series`}
        value={choice.seriesId}
        disabled={disabled}
        onChange={(event) => choice.set(event.target.value, choice.chapter)}
      >
        <option value="">
          <Trans>None</Trans>
        </option>
        {series.map((each) => (
          <option key={each._id} value={each._id}>
            {each.title}
          </option>
        ))}
      </select>
      {choice.seriesId && (
        <>
          <label htmlFor={`${id}-chapter`}>
            <Trans>Chapter (optional)</Trans>
          </label>
          <input
            id={`${id}-chapter`}
            type="text"
            value={choice.chapter}
            maxLength={SERIES_TEXT_MAX.chapter}
            placeholder={t`For example: Issue 2`}
            disabled={disabled}
            onChange={(event) => choice.set(choice.seriesId, event.target.value)}
          />
        </>
      )}
    </div>
  );
}
