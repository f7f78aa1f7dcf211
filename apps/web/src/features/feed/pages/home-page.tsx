import { useDocumentTitle } from '../../../lib/use-document-title';
import { PostList } from '../../posts';
import { EmptyFeed } from '../components/empty-feed';
import { FeedView } from '../components/feed-view';

const SOURCE = { kind: 'feed' } as const;

/** / — your posts and the posts of the people you follow. */
export default function HomePage() {
  useDocumentTitle('Home');
  return (
    <FeedView title="Home" description="New work from the artists you follow, and your own." source={SOURCE}>
      {(sort) => (
        <PostList source={SOURCE} sort={sort} label="Posts from you and the people you follow" empty={<EmptyFeed />} />
      )}
    </FeedView>
  );
}
