import { useDocumentTitle } from '../../../lib/use-document-title';
import { CommissionFilter, useCommissionFilter } from '../../commissions/filter';
import { PostGrid } from '../../posts/grid';
import styles from '../components/empty-feed.module.css';
import { FeedView } from '../components/feed-view';

const SOURCE = { kind: 'explore' } as const;

const EMPTY = (
  <section className={styles.empty} aria-labelledby="empty-explore-title">
    <h2 id="empty-explore-title" className={styles.title}>
      Nothing here yet
    </h2>
    <p className={styles.text}>Be the first to share your art: use Add Post.</p>
  </section>
);

const FILTERED_EMPTY = (
  <section className={styles.empty} aria-labelledby="empty-explore-title">
    <h2 id="empty-explore-title" className={styles.title}>
      No works match
    </h2>
    <p className={styles.text}>No artist open for commissions matches this filter yet.</p>
  </section>
);

/** /explore — everyone's posts, as a grid of works; narrowed to artists open for commissions when asked (issue 42). */
export default function ExplorePage() {
  useDocumentTitle('Explore');
  const filter = useCommissionFilter();
  const source = filter ? ({ kind: 'explore', filter } as const) : SOURCE;
  return (
    <FeedView title="Explore" description="Everything shared on Share Arts." source={source} wide>
      {(sort) => (
        <>
          <CommissionFilter label="Explore" />
          <PostGrid
            source={source}
            sort={sort}
            label={filter ? 'Posts from artists open for commissions' : 'Posts from everyone'}
            empty={filter ? FILTERED_EMPTY : EMPTY}
          />
        </>
      )}
    </FeedView>
  );
}
