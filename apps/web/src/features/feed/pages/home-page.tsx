import { useLingui } from '@lingui/react/macro';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PostList } from '../../posts';
import { EmptyFeed } from '../components/empty-feed';
import { FeedView } from '../components/feed-view';

const SOURCE = { kind: 'feed' } as const;

/** / — your posts and the posts of the people you follow. */
export default function HomePage() {
  const { t } = useLingui();
  useDocumentTitle(t`Home`);
  return (
    <FeedView title={t`Home`} description={t`New work from the artists you follow, and your own.`} source={SOURCE}>
      {(sort) => (
        <PostList
          source={SOURCE}
          sort={sort}
          label={t`Posts from you and the people you follow`}
          empty={<EmptyFeed />}
        />
      )}
    </FeedView>
  );
}
