import { ArrowDownUp, LibraryBig, Lock, Pencil } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatCount } from '../../../lib/format-count';
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
  const { username = '', slug = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: collection, isPending, error, refetch } = useCollection(username, slug);
  const [reordering, setReordering] = useState(false);
  const [editing, setEditing] = useState(false);
  useDocumentTitle(collection?.title ?? 'Collection');

  if (isPending) {
    return (
      <p className={styles.status} role="status">
        Loading collection…
      </p>
    );
  }
  if (!collection) {
    if (error instanceof ApiError && error.status === 404) {
      return (
        <NotFound icon={LibraryBig} title="Collection not found">
          It may have been deleted, renamed or made private, or the link is not quite right.
        </NotFound>
      );
    }
    return (
      <div className={styles.problem} role="alert">
        <p>The collection could not be loaded: {errorMessage(error)}</p>
        <Button variant="secondary" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (collection.owner.username !== username) {
    return <Navigate to={collectionPagePath(collection.owner.username, collection.slug)} replace />;
  }
  const { owner } = collection;
  const canChange = collection.viewer.isOwner && collection.kind === 'collection';

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <p className={styles.kicker}>
          {collection.visibility === 'private' ? (
            <>
              <Lock aria-hidden="true" size="1em" /> Private collection
            </>
          ) : (
            'Collection'
          )}
        </p>
        <h1 className={styles.title}>{collection.title}</h1>
        <p className={styles.owner}>
          Gathered by <Link to={`/${encodeURIComponent(owner.username)}`}>{fullName(owner)}</Link> (@{owner.username}) ·{' '}
          {formatCount(collection.workCount)} {collection.workCount === 1 ? 'work' : 'works'}
        </p>
        {collection.description && <p className={styles.description}>{collection.description}</p>}
        {canChange && (
          <div className={styles.actions}>
            <Button variant="secondary" className={styles.action} onClick={() => setEditing(true)}>
              <Pencil aria-hidden="true" size="1.05em" />
              Edit
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
              {reordering ? 'Done reordering' : 'Reorder'}
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
            toast.success('Collection saved');
            if (saved.slug !== collection.slug) {
              void navigate(collectionPagePath(saved.owner.username, saved.slug), { replace: true });
            }
          }}
          onDeleted={() => {
            setEditing(false);
            toast.success(`${collection.title} was deleted`);
            void navigate(`/${encodeURIComponent(owner.username)}?tab=collections`, { replace: true });
          }}
        />
      )}
    </div>
  );
}
