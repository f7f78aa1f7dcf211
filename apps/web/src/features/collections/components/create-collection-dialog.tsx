import { Trans, useLingui } from '@lingui/react/macro';
import type { Collection, CollectionVisibility } from '@share-arts/contract';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import layout from '../../../ui/dialog-layout.module.css';
import { TextAreaField, TextField } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import { useCreateCollection } from '../api/collection-mutations';
import { COLLECTION_TEXT_MAX } from '../model/limits';
import { VisibilityChoice } from './visibility-choice';

interface CreateCollectionDialogProps {
  onClose: () => void;
  /** Called with the new collection once the server has it (the dialog is then closed by the caller). */
  onCreated: (collection: Collection) => void;
}

/** "New collection": a title (required), a description, and who sees it (private by default). */
export function CreateCollectionDialog({ onClose, onCreated }: CreateCollectionDialogProps) {
  const { t } = useLingui();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [visibility, setVisibility] = useState<CollectionVisibility>('private');
  const [problem, setProblem] = useState<string | undefined>();
  const create = useCreateCollection();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    if (!title.trim()) {
      setProblem(t`Give the collection a title.`);
      return;
    }
    setProblem(undefined);
    create.mutate(
      { title: title.trim(), visibility, ...(description.trim() ? { description: description.trim() } : {}) },
      { onSuccess: onCreated, onError: (error) => setProblem(errorMessage(error)) },
    );
  };

  return (
    <Modal title={t`New collection`} onClose={onClose} busy={create.isPending} size="sm">
      <form className={layout.form} onSubmit={onSubmit} noValidate>
        <TextField
          label={t`Title`}
          hint={t`A mood board, figure references, a show: works by anyone, in the order you choose.`}
          value={title}
          maxLength={COLLECTION_TEXT_MAX.title}
          onChange={(event) => setTitle(event.target.value)}
          error={problem}
          readOnly={create.isPending}
          data-autofocus
          required
        />
        <TextAreaField
          label={t`Description (optional)`}
          value={description}
          maxLength={COLLECTION_TEXT_MAX.description}
          rows={3}
          onChange={(event) => setDescription(event.target.value)}
          readOnly={create.isPending}
        />
        <VisibilityChoice value={visibility} onChange={setVisibility} disabled={create.isPending} />
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          <Button variant="secondary" onClick={onClose} disabled={create.isPending}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" className={layout.busySubmit} aria-disabled={create.isPending || undefined}>
            {create.isPending ? t`Creating…` : t`Create collection`}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
