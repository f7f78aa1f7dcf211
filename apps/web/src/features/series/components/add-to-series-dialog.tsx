import { Trans, useLingui } from '@lingui/react/macro';
import type { Series } from '@share-arts/contract';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import layout from '../../../ui/dialog-layout.module.css';
import { TextField } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import { toast } from '../../../ui/toast';
import { useAddWork } from '../api/series-mutations';
import { useUserSeries } from '../api/series-queries';
import { workCountText } from '../model/series-words';
import { SERIES_TEXT_MAX } from '../model/limits';
import { CreateSeriesDialog } from './create-series-dialog';
import styles from './post-series.module.css';

interface AddToSeriesDialogProps {
  postId: string;
  /** The signed-in artist (the work's author). */
  username: string;
  /** The series the work is in already (not offered again). */
  already: ReadonlySet<string>;
  onClose: () => void;
}

/** "Add to series": pick one of the artist's series (or create one), and an optional chapter. */
export function AddToSeriesDialog({ postId, username, already, onClose }: AddToSeriesDialogProps) {
  const { t } = useLingui();
  const { series, isPending, isError, error, refetch, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useUserSeries(username);
  const [chosen, setChosen] = useState<string | null>(null);
  const [chapter, setChapter] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [creating, setCreating] = useState(false);
  const add = useAddWork();
  const groupId = useId();
  const offered = series.filter((each) => !already.has(each._id));

  const submit = (target: Series | undefined) => {
    if (add.isPending) return;
    if (!target) {
      setProblem(t`Choose a series to add this work to.`);
      return;
    }
    setProblem(undefined);
    add.mutate(
      { seriesId: target._id, postId, chapter },
      {
        onSuccess: (updated) => {
          const title = updated.title;
          toast.success(t`Added to ${title}`);
          onClose();
        },
        onError: (failure) => setProblem(errorMessage(failure)),
      },
    );
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit(offered.find((each) => each._id === chosen));
  };

  let choices;
  if (isPending) {
    choices = (
      <p role="status">
        <Trans>Loading your series…</Trans>
      </p>
    );
  } else if (isError && series.length === 0) {
    const problem = errorMessage(error);
    choices = (
      <div role="alert" className={styles.problem}>
        <p>
          <Trans>Your series could not be loaded: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  } else if (offered.length === 0) {
    choices = (
      <p className={layout.text}>
        {series.length === 0
          ? t`You have no series yet. Create one, and this work goes in first.`
          : t`This work is in every series you have loaded. Create another one?`}
      </p>
    );
  } else {
    choices = (
      <fieldset className={styles.choices} aria-describedby={problem ? `${groupId}-problem` : undefined}>
        <legend className={styles.legend}>
          <Trans>Series</Trans>
        </legend>
        {offered.map((each) => (
          <label key={each._id} className={styles.choice}>
            <input
              type="radio"
              name={groupId}
              value={each._id}
              checked={chosen === each._id}
              onChange={() => setChosen(each._id)}
            />
            <span className={styles.choiceTitle}>{each.title}</span>
            <span className={styles.choiceCount}>{workCountText(each.workCount)}</span>
          </label>
        ))}
        {hasNextPage && (
          <Button
            variant="secondary"
            onClick={() => void fetchNextPage()}
            aria-disabled={isFetchingNextPage || undefined}
          >
            {isFetchingNextPage ? t`Loading…` : t`More series`}
          </Button>
        )}
      </fieldset>
    );
  }

  return (
    <Modal title={t`Add to series`} onClose={onClose} busy={add.isPending} size="sm">
      <form className={layout.form} onSubmit={onSubmit} noValidate>
        {choices}
        <Button variant="secondary" onClick={() => setCreating(true)} disabled={add.isPending}>
          <Trans>New series…</Trans>
        </Button>
        <TextField
          label={t`Chapter (optional)`}
          hint={t`The chapter this work opens or belongs to, e.g. “Issue 2” or “March”.`}
          value={chapter}
          maxLength={SERIES_TEXT_MAX.chapter}
          onChange={(event) => setChapter(event.target.value)}
          readOnly={add.isPending}
        />
        {problem && (
          <p id={`${groupId}-problem`} className={styles.error} role="alert">
            {problem}
          </p>
        )}
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          <Button variant="secondary" onClick={onClose} disabled={add.isPending}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" className={layout.busySubmit} aria-disabled={add.isPending || undefined}>
            {add.isPending ? t`Adding…` : t`Add`}
          </Button>
        </div>
      </form>
      {/* Over this dialog: once created, the work goes into the new series straight away. */}
      {creating && (
        <CreateSeriesDialog
          onClose={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false);
            setChosen(created._id);
            submit(created);
          }}
        />
      )}
    </Modal>
  );
}
