import { Trans, useLingui } from '@lingui/react/macro';
import type { Collection, CollectionWork } from '@share-arts/contract';
import { Link } from 'react-router';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { uniqueById } from '../../../lib/one-move-order';
import { useCurrentUser } from '../../../lib/session';
import { useInView } from '../../../lib/use-in-view';
import { Button } from '../../../ui/button';
import layout from '../../../ui/dialog-layout.module.css';
import { TextAreaField } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import { ResponsivePicture } from '../../../ui/responsive-picture';
import { toast } from '../../../ui/toast';
import { COLLECTION_TEXT_MAX } from '../../collections';
import { useCollectionWorks, useRemoveFromCollection, useSetNote } from '../../collections/page';
import { workName } from '../../series';
import styles from './collection-page.module.css';

/** "Note" of one work: why it is in the collection. */
export function NoteDialog({
  collection,
  work,
  onClose,
}: {
  collection: Collection;
  work: CollectionWork;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const [note, setNote] = useState(work.note);
  const [problem, setProblem] = useState<string | undefined>();
  const save = useSetNote(collection);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    save.mutate(
      { postId: work.post._id, note },
      { onSuccess: onClose, onError: (error) => setProblem(errorMessage(error)) },
    );
  };
  return (
    <Modal title={t`Note`} onClose={onClose} busy={save.isPending} size="sm">
      <form className={layout.form} onSubmit={onSubmit} noValidate>
        <TextAreaField
          label={t`Note on “${name}”`}
          hint={t`Why this work is here. Leave it empty for none.`}
          value={note}
          maxLength={COLLECTION_TEXT_MAX.note}
          rows={4}
          onChange={(event) => setNote(event.target.value)}
          error={problem}
          readOnly={save.isPending}
          data-autofocus
        />
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" className={layout.busySubmit} aria-disabled={save.isPending || undefined}>
            {save.isPending ? t`Saving…` : t`Save note`}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * The works of a collection in the owner's order, each with its note: the owner writes notes and takes works out;
 * an artist takes their own work out of someone's public collection. The next page loads as the end comes into view.
 */
export function CollectionWorks({ collection }: { collection: Collection }) {
  const { t } = useLingui();
  const title = collection.title;
  const { data, isPending, isError, error, refetch, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useCollectionWorks(collection._id);
  const { data: me } = useCurrentUser();
  const remove = useRemoveFromCollection();
  const [noteOf, setNoteOf] = useState<CollectionWork | null>(null);
  const [sentinelRef, endInView] = useInView<HTMLDivElement>();
  useEffect(() => {
    if (endInView && hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [endInView, hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  const works = useMemo(
    () => uniqueById(data?.pages.flatMap((page) => page.works) ?? [], (work) => work.post._id),
    [data],
  );
  const isOwner = collection.viewer.isOwner;
  const saved = collection.kind === 'saved';

  const takeOut = (work: CollectionWork) =>
    remove.mutate(
      { collectionId: collection._id, postId: work.post._id },
      {
        onSuccess: () => {
          const name = workName(work.post);
          const title = collection.title;
          toast.success(t`“${name}” was taken out of ${title}`);
        },
        onError: (problem) => toast.error(errorMessage(problem)),
      },
    );

  if (isPending) {
    return (
      <p className={styles.status} role="status">
        <Trans>Loading works…</Trans>
      </p>
    );
  }
  if (isError && !data) {
    const problem = errorMessage(error);
    return (
      <div className={styles.problem} role="alert">
        <p>
          <Trans>The works of this collection could not be loaded: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }
  if (works.length === 0) {
    return (
      <p className={styles.status}>
        {isOwner
          ? t`Nothing here yet. Use “Save to…” beside a work’s bookmark to add it.`
          : t`There are no works in this collection yet.`}
      </p>
    );
  }

  return (
    <>
      <ul className={styles.works} aria-label={t`Works in ${title}`}>
        {works.map((work) => {
          const { post } = work;
          const name = workName(post);
          const author = post.username;
          const picture = post.media?.[0] ?? post.picture;
          const mine = me != null && post.userId === me._id;
          return (
            <li key={post._id} className={styles.work}>
              <Link to={`/posts/${encodeURIComponent(post._id)}`} className={styles.workLink}>
                <span className={styles.workPicture}>
                  {/* A work with a content warning is named, not shown, here. */}
                  {picture && !post.contentWarning ? (
                    <ResponsivePicture picture={picture} alt={picture.alt} sizes="(max-width: 40rem) 50vw, 240px" />
                  ) : (
                    <span className={styles.noPicture}>{post.contentWarning ? t`Sensitive` : name}</span>
                  )}
                </span>
                <span className={styles.workName}>
                  <Trans>
                    {name} <span className={styles.by}>by @{author}</span>
                  </Trans>
                </span>
              </Link>
              {work.note && <p className={styles.note}>{work.note}</p>}
              {(isOwner || (mine && collection.visibility === 'public')) && (
                <div className={styles.workActions}>
                  {isOwner && !saved && (
                    <Button variant="secondary" onClick={() => setNoteOf(work)} aria-label={t`Note on “${name}”`}>
                      <Trans>Note</Trans>
                    </Button>
                  )}
                  <Button
                    variant="secondary"
                    onClick={() => takeOut(work)}
                    aria-label={isOwner ? t`Take “${name}” out` : t`Take my work “${name}” out of this collection`}
                  >
                    {isOwner ? t`Take out` : t`Take my work out`}
                  </Button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      <div ref={sentinelRef} className={styles.end}>
        {hasNextPage ? (
          <Button
            variant="secondary"
            onClick={() => void fetchNextPage()}
            aria-disabled={isFetchingNextPage || undefined}
          >
            {isFetchingNextPage ? t`Loading more works…` : t`Load more works`}
          </Button>
        ) : (
          <p className={styles.status}>
            <Trans>That is every work in this collection.</Trans>
          </p>
        )}
      </div>
      {noteOf && <NoteDialog collection={collection} work={noteOf} onClose={() => setNoteOf(null)} />}
    </>
  );
}
