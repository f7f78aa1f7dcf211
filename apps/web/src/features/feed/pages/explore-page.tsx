import { useDocumentTitle } from '../../../lib/use-document-title';
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

/** /explore — everyone's posts, as a grid of works. */
export default function ExplorePage() {
  useDocumentTitle('Explore');
  return (
    <FeedView title="Explore" description="Everything shared on Share Arts." source={SOURCE} wide>
      {(sort) => <PostGrid source={SOURCE} sort={sort} label="Posts from everyone" empty={EMPTY} />}
    </FeedView>
  );
}
