import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Lock, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { useUserCollections } from '../api/collection-queries';
import { collectionPagePath } from '../api/collection-paths';
import { CollectionCover } from './collection-cover';
import { CreateCollectionDialog } from './create-collection-dialog';
import styles from './collections.module.css';

/** The width a card's cover is drawn at (also in collections.module.css). */
const COVER_SIZES = '176px';

/** "1 work", "1,204 works", in the app's language. */
const countText = (count: number) => t`${plural(count, { one: '# work', other: '# works' })}`;

/**
 * The profile's Collections tab (loaded when it is opened): a person's public collections as cards; their owner sees
 * Saved first and their private ones too, and "New collection".
 */
export default function ProfileCollections({ username, isOwn }: { username: string; isOwn: boolean }) {
  const { t } = useLingui();
  const { collections, isPending, isError, error, refetch, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useUserCollections(username);
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();

  if (isPending) {
    return (
      <p className={styles.muted} role="status">
        <Trans>Loading collections…</Trans>
      </p>
    );
  }
  if (isError && collections.length === 0) {
    const problem = errorMessage(error);
    return (
      <div className={styles.problem} role="alert">
        <p>
          <Trans>The collections could not be loaded: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }

  return (
    <section className={styles.section} aria-label={isOwn ? t`Your collections` : t`Collections by @${username}`}>
      {isOwn && (
        <div className={styles.heading}>
          <p className={styles.muted}>
            <Trans>Gather works by anyone: a mood board, references, a show.</Trans>
          </p>
          <Button variant="secondary" className={styles.new} onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" size="1.05em" />
            <Trans>New collection</Trans>
          </Button>
        </div>
      )}
      {collections.length === 0 ? (
        <p className={styles.muted}>
          <Trans>@{username} has no public collections yet.</Trans>
        </p>
      ) : (
        <ul className={styles.cards}>
          {collections.map((each) => (
            <li key={each._id} className={styles.card}>
              <Link to={collectionPagePath(each.owner.username, each.slug)} className={styles.cardLink}>
                <CollectionCover collection={each} sizes={COVER_SIZES} />
                <span className={styles.cardTitle}>
                  {each.title}
                  {each.visibility === 'private' && <Lock aria-label="private" size="0.9em" className={styles.lock} />}
                </span>
                <span className={styles.cardCount}>{countText(each.workCount)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {hasNextPage && (
        <div className={styles.more}>
          <Button
            variant="secondary"
            onClick={() => void fetchNextPage()}
            aria-disabled={isFetchingNextPage || undefined}
          >
            {isFetchingNextPage ? t`Loading…` : t`More collections`}
          </Button>
        </div>
      )}
      {creating && (
        <CreateCollectionDialog
          onClose={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false);
            void navigate(collectionPagePath(created.owner.username, created.slug));
          }}
        />
      )}
    </section>
  );
}
