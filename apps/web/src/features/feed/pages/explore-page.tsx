import { Trans, useLingui } from '@lingui/react/macro';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { CommissionFilter, useCommissionFilter } from '../../commissions/filter';
import { PostGrid } from '../../posts/grid';
import styles from '../components/empty-feed.module.css';
import { FeedView } from '../components/feed-view';

const SOURCE = { kind: 'explore' } as const;

const EMPTY = (
  <section className={styles.empty} aria-labelledby="empty-explore-title">
    <h2 id="empty-explore-title" className={styles.title}>
      <Trans>Nothing here yet</Trans>
    </h2>
    <p className={styles.text}>
      <Trans>Be the first to share your art: use Add Post.</Trans>
    </p>
  </section>
);

const FILTERED_EMPTY = (
  <section className={styles.empty} aria-labelledby="empty-explore-title">
    <h2 id="empty-explore-title" className={styles.title}>
      <Trans>No works match</Trans>
    </h2>
    <p className={styles.text}>
      <Trans>No artist open for commissions matches this filter yet.</Trans>
    </p>
  </section>
);

/** /explore — everyone's posts, as a grid of works; narrowed to artists open for commissions when asked (issue 42). */
export default function ExplorePage() {
  const { t } = useLingui();
  useDocumentTitle(t`Explore`);
  const filter = useCommissionFilter();
  const source = filter ? ({ kind: 'explore', filter } as const) : SOURCE;
  return (
    <FeedView title={t`Explore`} description={t`Everything shared on Share Arts.`} source={source} wide>
      {(sort) => (
        <>
          <CommissionFilter label={t`Explore`} />
          <PostGrid
            source={source}
            sort={sort}
            label={filter ? t`Posts from artists open for commissions` : t`Posts from everyone`}
            empty={filter ? FILTERED_EMPTY : EMPTY}
          />
        </>
      )}
    </FeedView>
  );
}
