import { Trans, useLingui } from '@lingui/react/macro';
import type { Series } from '@share-arts/contract';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import layout from '../../../ui/dialog-layout.module.css';
import { TextAreaField, TextField } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import { useCreateSeries } from '../api/series-mutations';
import { SERIES_TEXT_MAX } from '../model/limits';

interface CreateSeriesDialogProps {
  onClose: () => void;
  /** Called with the new series once the server has it (the dialog is then closed by the caller). */
  onCreated: (series: Series) => void;
}

/** "New series": a title (required) and a description. */
export function CreateSeriesDialog({ onClose, onCreated }: CreateSeriesDialogProps) {
  const { t } = useLingui();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const create = useCreateSeries();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    if (!title.trim()) {
      setProblem(t`Give the series a title.`);
      return;
    }
    setProblem(undefined);
    create.mutate(
      { title: title.trim(), ...(description.trim() ? { description: description.trim() } : {}) },
      { onSuccess: onCreated, onError: (error) => setProblem(errorMessage(error)) },
    );
  };

  return (
    <Modal title={t`New series`} onClose={onClose} busy={create.isPending} size="sm">
      <form className={layout.form} onSubmit={onSubmit} noValidate>
        <TextField
          label={t`Title`}
          hint={t`A comic, a sketchbook, a study: its works go in the order you choose.`}
          value={title}
          maxLength={SERIES_TEXT_MAX.title}
          onChange={(event) => setTitle(event.target.value)}
          error={problem}
          readOnly={create.isPending}
          data-autofocus
          required
        />
        <TextAreaField
          label={t`Description (optional)`}
          value={description}
          maxLength={SERIES_TEXT_MAX.description}
          rows={3}
          onChange={(event) => setDescription(event.target.value)}
          readOnly={create.isPending}
        />
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          <Button variant="secondary" onClick={onClose} disabled={create.isPending}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" className={layout.busySubmit} aria-disabled={create.isPending || undefined}>
            {create.isPending ? t`Creating…` : t`Create series`}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
