import { Trans, useLingui } from '@lingui/react/macro';
import { Lock, Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/session';
import { Button } from '../../../ui/button';
import layout from '../../../ui/dialog-layout.module.css';
import { TextAreaField, TextField } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import { toast } from '../../../ui/toast';
import { useCreateCollection, useToggleInCollection } from '../api/collection-mutations';
import { usePostCollections, useUserCollections } from '../api/collection-queries';
import { COLLECTION_TEXT_MAX } from '../model/limits';
import styles from './collections.module.css';

export interface SaveToDialogProps {
  postId: string;
  /** Whether the work is in Saved (a bookmark) as its card shows it now. */
  saved: boolean;
  /** Saves or unsaves it through the card's own bookmark toggle (its shown state follows at once). */
  onToggleSaved: () => void;
  onClose: () => void;
}

/**
 * "Save to…": the work in Saved (the bookmark) and in any of my collections, each a checkbox that saves at once;
 * a note for the collections it goes into; and a new collection made and filled in one go.
 */
export default function SaveToDialog({ postId, saved, onToggleSaved, onClose }: SaveToDialogProps) {
  const { t } = useLingui();
  const { data: me } = useCurrentUser();
  const username = me?.username ?? '';
  const { collections, isPending, hasNextPage, fetchNextPage, isFetchingNextPage } = useUserCollections(username);
  const holding = usePostCollections(postId);
  const toggle = useToggleInCollection(postId);
  const create = useCreateCollection();
  const [note, setNote] = useState('');
  const [newTitle, setNewTitle] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const noteId = useId();
  const own = collections.filter((collection) => collection.kind === 'collection');
  const inIds = new Set(holding.data?.collectionIds ?? []);

  const change = (collectionId: string, title: string, add: boolean) => {
    setProblem(undefined);
    toggle.mutate(
      { collectionId, add, note },
      {
        onSuccess: () => toast.success(add ? t`Added to ${title}` : t`Taken out of ${title}`),
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  const onCreate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending || !newTitle.trim()) return;
    create.mutate(
      { title: newTitle.trim() },
      {
        onSuccess: (collection) => {
          setNewTitle('');
          change(collection._id, collection.title, true);
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <Modal title={t`Save to…`} onClose={onClose} size="sm">
      <div className={layout.form}>
        <TextAreaField
          id={noteId}
          label={t`Note (optional)`}
          hint={t`Why this work is here: kept with it in the collections you add it to now.`}
          value={note}
          maxLength={COLLECTION_TEXT_MAX.note}
          rows={2}
          onChange={(event) => setNote(event.target.value)}
        />
        <fieldset className={styles.choices} aria-busy={isPending || holding.isPending || undefined}>
          <legend className={styles.legend}>
            <Trans>Your collections</Trans>
          </legend>
          <label className={styles.option}>
            <input type="checkbox" checked={saved} onChange={onToggleSaved} data-autofocus />
            <span>
              <Trans>
                Saved <Lock aria-label={t`private`} size="0.9em" className={styles.lock} />
              </Trans>
            </span>
          </label>
          {own.map((collection) => (
            <label key={collection._id} className={styles.option}>
              <input
                type="checkbox"
                checked={inIds.has(collection._id)}
                disabled={holding.isPending}
                onChange={(event) => change(collection._id, collection.title, event.target.checked)}
              />
              <span>
                {collection.title}
                {collection.visibility === 'private' && (
                  <Lock aria-label="private" size="0.9em" className={styles.lock} />
                )}
              </span>
            </label>
          ))}
          {hasNextPage && (
            <Button
              variant="secondary"
              onClick={() => void fetchNextPage()}
              aria-disabled={isFetchingNextPage || undefined}
            >
              {isFetchingNextPage ? t`Loading…` : t`More collections`}
            </Button>
          )}
        </fieldset>
        {problem && (
          <p className={styles.problemText} role="alert">
            {problem}
          </p>
        )}
        <form className={styles.newRow} onSubmit={onCreate} noValidate>
          <TextField
            label={t`New collection`}
            hint={t`Private; make it public on its page.`}
            value={newTitle}
            maxLength={COLLECTION_TEXT_MAX.title}
            onChange={(event) => setNewTitle(event.target.value)}
            readOnly={create.isPending}
          />
          <Button type="submit" variant="secondary" aria-disabled={create.isPending || !newTitle.trim() || undefined}>
            <Plus aria-hidden="true" size="1.05em" />
            {create.isPending ? t`Creating…` : t`Create and add`}
          </Button>
        </form>
        <div className={layout.actions}>
          <Button onClick={onClose}>
            <Trans>Done</Trans>
          </Button>
        </div>
      </div>
    </Modal>
  );
}
