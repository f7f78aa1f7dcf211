import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { ArrowDownUp, LibraryBig, Lock, Pencil } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { fullName } from '../../../lib/user-name';
import { Button } from '../../../ui/button';
import { NotFound } from '../../../ui/not-found';
import { toast } from '../../../ui/toast';
import { collectionKeys, collectionPagePath } from '../../collections';
import { useCollection } from '../../collections/page';
import { CollectionReorder } from '../components/collection-reorder';
import { CollectionWorks } from '../components/collection-works';
import { EditCollectionDialog } from '../components/edit-collection-dialog';
import styles from '../components/collection-page.module.css';

/**
 * /:username/collections/:slug — a collection (issue 41): its title, owner, description and its works in the owner's
 * order with their notes. Its owner edits it and reorders its works (by drag or by keyboard) here; an artist takes
 * their own work out of it. A private collection, and Saved, are there for their owner alone (anyone else: 404).
 */
export default function CollectionPage() {
  const { t } = useLingui();
  const { username = '', slug = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: collection, isPending, error, refetch } = useCollection(username, slug);
  const [reordering, setReordering] = useState(false);
  const [editing, setEditing] = useState(false);
  useDocumentTitle(collection?.title ?? t`Collection`);

  if (isPending) {
    return (
      <p className={styles.status} role="status">
        <Trans>Loading collection…</Trans>
      </p>
    );
  }
  if (!collection) {
    if (error instanceof ApiError && error.status === 404) {
      return (
        <NotFound icon={LibraryBig} title={t`Collection not found`}>
          <Trans>It may have been deleted, renamed or made private, or the link is not quite right.</Trans>
        </NotFound>
      );
    }
    const problem = errorMessage(error);
    return (
      <div className={styles.problem} role="alert">
        <p>
          <Trans>The collection could not be loaded: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }
  if (collection.owner.username !== username) {
    return <Navigate to={collectionPagePath(collection.owner.username, collection.slug)} replace />;
  }
  const { owner } = collection;
  const ownerName = fullName(owner);
  const ownerUsername = owner.username;
  const works = collection.workCount;
  const canChange = collection.viewer.isOwner && collection.kind === 'collection';

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <p className={styles.kicker}>
          {collection.visibility === 'private' ? (
            <>
              <Lock aria-hidden="true" size="1em" /> <Trans>Private collection</Trans>
            </>
          ) : (
            t`Collection`
          )}
        </p>
        <h1 className={styles.title}>{collection.title}</h1>
        <p className={styles.owner}>
          <Trans>
            Gathered by <Link to={`/${encodeURIComponent(owner.username)}`}>{ownerName}</Link> (@{ownerUsername})
          </Trans>{' '}
          · <Plural value={works} one="# work" other="# works" />
        </p>
        {collection.description && <p className={styles.description}>{collection.description}</p>}
        {canChange && (
          <div className={styles.actions}>
            <Button variant="secondary" className={styles.action} onClick={() => setEditing(true)}>
              <Pencil aria-hidden="true" size="1.05em" />
              <Trans>Edit</Trans>
            </Button>
            <Button
              variant={reordering ? 'primary' : 'secondary'}
              className={styles.action}
              aria-pressed={reordering}
              onClick={() => {
                setReordering(!reordering);
                if (reordering) void queryClient.invalidateQueries({ queryKey: collectionKeys.works(collection._id) });
              }}
            >
              <ArrowDownUp aria-hidden="true" size="1.05em" />
              {reordering ? t`Done reordering` : t`Reorder`}
            </Button>
          </div>
        )}
      </header>
      {reordering && canChange ? (
        <CollectionReorder key={collection._id} collection={collection} />
      ) : (
        <CollectionWorks key={collection._id} collection={collection} />
      )}
      {editing && (
        <EditCollectionDialog
          collection={collection}
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            toast.success(t`Collection saved`);
            if (saved.slug !== collection.slug) {
              void navigate(collectionPagePath(saved.owner.username, saved.slug), { replace: true });
            }
          }}
          onDeleted={() => {
            setEditing(false);
            const title = collection.title;
            toast.success(t`${title} was deleted`);
            void navigate(`/${encodeURIComponent(owner.username)}?tab=collections`, { replace: true });
          }}
        />
      )}
    </div>
  );
}
