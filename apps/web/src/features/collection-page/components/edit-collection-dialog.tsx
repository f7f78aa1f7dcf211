import { Trans, useLingui } from '@lingui/react/macro';
import type { Collection, CollectionVisibility } from '@share-arts/contract';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import layout from '../../../ui/dialog-layout.module.css';
import { TextAreaField, TextField } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import { COLLECTION_TEXT_MAX } from '../../collections';
import { useDeleteCollection, useUpdateCollection, VisibilityChoice } from '../../collections/page';

interface EditCollectionDialogProps {
  collection: Collection;
  onClose: () => void;
  onSaved: (collection: Collection) => void;
  onDeleted: () => void;
}

/** Edit a collection: its title, description and who sees it; or delete it (its works stay where they are). */
export function EditCollectionDialog({ collection, onClose, onSaved, onDeleted }: EditCollectionDialogProps) {
  const { t } = useLingui();
  const [title, setTitle] = useState(collection.title);
  const [description, setDescription] = useState(collection.description);
  const [visibility, setVisibility] = useState<CollectionVisibility>(collection.visibility);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const update = useUpdateCollection(collection);
  const remove = useDeleteCollection(collection);
  const busy = update.isPending || remove.isPending;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!title.trim()) {
      setProblem(t`Give the collection a title.`);
      return;
    }
    update.mutate(
      { title: title.trim(), description: description.trim(), visibility },
      { onSuccess: onSaved, onError: (error) => setProblem(errorMessage(error)) },
    );
  };

  return (
    <Modal title={t`Edit collection`} onClose={onClose} busy={busy} size="sm">
      <form className={layout.form} onSubmit={onSubmit} noValidate>
        <TextField
          label={t`Title`}
          value={title}
          maxLength={COLLECTION_TEXT_MAX.title}
          onChange={(event) => setTitle(event.target.value)}
          error={problem}
          readOnly={busy}
          data-autofocus
          required
        />
        <TextAreaField
          label={t`Description (optional)`}
          value={description}
          maxLength={COLLECTION_TEXT_MAX.description}
          rows={3}
          onChange={(event) => setDescription(event.target.value)}
          readOnly={busy}
        />
        <VisibilityChoice value={visibility} onChange={setVisibility} disabled={busy} />
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          {confirming ? (
            <Button
              variant="danger"
              onClick={() =>
                remove.mutate(undefined, { onSuccess: onDeleted, onError: (error) => setProblem(errorMessage(error)) })
              }
              aria-disabled={busy || undefined}
            >
              {remove.isPending ? t`Deleting…` : t`Delete it for good`}
            </Button>
          ) : (
            <Button variant="secondary" onClick={() => setConfirming(true)} disabled={busy}>
              <Trans>Delete collection</Trans>
            </Button>
          )}
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" className={layout.busySubmit} aria-disabled={busy || undefined}>
            {update.isPending ? t`Saving…` : t`Save`}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
