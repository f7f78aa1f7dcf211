import { Bookmark, Grid3x3, Heart } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { Tabs, type TabItem } from '../../../ui/tabs';
import { PostList, type PostListSource } from '../../posts';
import styles from './profile-posts.module.css';

type Tab = 'posts' | 'liked' | 'saved';

const OWN_TABS: TabItem<Tab>[] = [
  { value: 'posts', label: 'Posts', icon: <Grid3x3 aria-hidden="true" size="1.1em" /> },
  { value: 'liked', label: 'Liked', icon: <Heart aria-hidden="true" size="1.1em" /> },
  { value: 'saved', label: 'Saved', icon: <Bookmark aria-hidden="true" size="1.1em" /> },
];
const OTHER_TABS = OWN_TABS.slice(0, 1);

const LIKED: PostListSource = { kind: 'liked' };
const SAVED: PostListSource = { kind: 'saved' };

function Empty({ text }: { text: string }) {
  return <p className={styles.empty}>{text}</p>;
}

/** Posts for everyone; Liked and Saved on your own profile only. The tab is kept in the URL (?tab=). */
export function ProfilePosts({ username, isOwn }: { username: string; isOwn: boolean }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = isOwn && (requested === 'liked' || requested === 'saved') ? requested : 'posts';

  const select = (next: Tab) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'posts') updated.delete('tab');
        else updated.set('tab', next);
        return updated;
      },
      { replace: true },
    );

  let panel;
  if (tab === 'liked') {
    panel = (
      <PostList
        source={LIKED}
        sort="latest"
        label="Posts you liked"
        empty={<Empty text="Posts you like show up here. Tap the heart on a post you love." />}
      />
    );
  } else if (tab === 'saved') {
    panel = (
      <PostList
        source={SAVED}
        sort="latest"
        label="Posts you saved"
        empty={<Empty text="Save posts to find them again here. Use the bookmark on any post." />}
      />
    );
  } else {
    panel = (
      <PostList
        source={{ kind: 'user', username }}
        sort="latest"
        label={`Posts by @${username}`}
        empty={
          <Empty
            text={isOwn ? 'You have not posted yet. Share your art with Add Post.' : `@${username} has not posted yet.`}
          />
        }
      />
    );
  }

  return (
    <Tabs label="Profile sections" items={isOwn ? OWN_TABS : OTHER_TABS} value={tab} onChange={select}>
      {panel}
    </Tabs>
  );
}
