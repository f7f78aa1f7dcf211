import { Trans, useLingui } from '@lingui/react/macro';
import type { Series, UpdateSeriesBody } from '@share-arts/contract';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import layout from '../../../ui/dialog-layout.module.css';
import { TextAreaField, TextField } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import { ResponsivePicture } from '../../../ui/responsive-picture';
import { SERIES_TEXT_MAX, uniqueById, useDeleteSeries, useSeriesWorks, useUpdateSeries, workName } from '../../series';
import styles from './edit-series-dialog.module.css';

interface EditSeriesDialogProps {
  series: Series;
  onClose: () => void;
  /** Saved: the series as the server now has it (its slug may have changed with its title). */
  onSaved: (series: Series) => void;
  onDeleted: () => void;
}

/** The owner's Edit: title, description, the cover (one of the works loaded, or the first work), and Delete. */
export function EditSeriesDialog({ series, onClose, onSaved, onDeleted }: EditSeriesDialogProps) {
  const { t } = useLingui();
  const seriesTitle = series.title;
  const [title, setTitle] = useState(series.title);
  const [description, setDescription] = useState(series.description);
  const [cover, setCover] = useState<string>(series.coverPostId ?? '');
  const [problem, setProblem] = useState<string | undefined>();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const update = useUpdateSeries(series);
  const remove = useDeleteSeries(series);
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage } = useSeriesWorks(series._id);
  const works = useMemo(
    () => uniqueById(data?.pages.flatMap((page) => page.works) ?? [], (work) => work.post._id),
    [data],
  );
  // Works with a picture and no content warning can be the cover (a warning's picture is not shown unasked).
  const covers = works.filter((work) => (work.post.media?.[0] ?? work.post.picture) && !work.post.contentWarning);
  const coverGroup = useId();
  const busy = update.isPending || remove.isPending;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!title.trim()) {
      setProblem(t`Give the series a title.`);
      return;
    }
    const body: UpdateSeriesBody = {};
    if (title.trim() !== series.title) body.title = title.trim();
    if (description.trim() !== series.description) body.description = description.trim();
    if ((cover || null) !== series.coverPostId) body.coverPostId = cover || null;
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    setProblem(undefined);
    update.mutate(body, { onSuccess: onSaved, onError: (error) => setProblem(errorMessage(error)) });
  };

  return (
    <Modal title={t`Edit series`} onClose={onClose} busy={busy}>
      <form className={layout.form} onSubmit={onSubmit} noValidate>
        <TextField
          label={t`Title`}
          value={title}
          maxLength={SERIES_TEXT_MAX.title}
          onChange={(event) => setTitle(event.target.value)}
          readOnly={busy}
          data-autofocus
          required
        />
        <TextAreaField
          label={t`Description (optional)`}
          value={description}
          maxLength={SERIES_TEXT_MAX.description}
          rows={3}
          onChange={(event) => setDescription(event.target.value)}
          readOnly={busy}
        />
        <fieldset className={styles.covers}>
          <legend className={styles.legend}>
            <Trans>Cover</Trans>
          </legend>
          <label className={styles.cover}>
            <input
              type="radio"
              name={coverGroup}
              value=""
              checked={cover === ''}
              disabled={busy}
              onChange={() => setCover('')}
            />
            <span className={styles.coverText}>
              <Trans>The first work</Trans>
            </span>
          </label>
          {covers.map((work) => {
            const picture = (work.post.media?.[0] ?? work.post.picture)!;
            return (
              <label key={work.post._id} className={styles.cover}>
                <input
                  type="radio"
                  name={coverGroup}
                  value={work.post._id}
                  checked={cover === work.post._id}
                  disabled={busy}
                  onChange={() => setCover(work.post._id)}
                />
                <span className={styles.thumb}>
                  <ResponsivePicture picture={picture} alt="" sizes="56px" />
                </span>
                <span className={styles.coverText}>{workName(work.post)}</span>
              </label>
            );
          })}
          {hasNextPage && (
            <Button
              variant="secondary"
              onClick={() => void fetchNextPage()}
              aria-disabled={isFetchingNextPage || undefined}
            >
              {isFetchingNextPage ? t`Loading more works…` : t`More works`}
            </Button>
          )}
        </fieldset>
        {problem && (
          <p className={styles.error} role="alert">
            {problem}
          </p>
        )}
        <div className={styles.footer}>
          <Button variant="danger" onClick={() => setConfirmingDelete(true)} disabled={busy}>
            <Trans>Delete series</Trans>
          </Button>
          <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" className={layout.busySubmit} aria-disabled={busy || undefined}>
              {update.isPending ? t`Saving…` : t`Save`}
            </Button>
          </div>
        </div>
      </form>
      {confirmingDelete && (
        <ConfirmDialog
          title={t`Delete this series?`}
          confirmLabel={t`Delete`}
          busyLabel={t`Deleting…`}
          busy={remove.isPending}
          onClose={() => setConfirmingDelete(false)}
          onConfirm={() =>
            remove.mutate(undefined, {
              onSuccess: onDeleted,
              onError: (error) => {
                setConfirmingDelete(false);
                setProblem(errorMessage(error));
              },
            })
          }
        >
          <Trans>{seriesTitle} goes, and its followers stop following it. Its works stay on your profile.</Trans>
        </ConfirmDialog>
      )}
    </Modal>
  );
}
