import type { Post, Sort } from '@share-arts/contract';
import type { ReactNode } from 'react';
import type { PostListSource } from '../api/post-keys';
import { PagedPosts, usePinnedFirst } from './paged-posts';
import { PostCard } from './post-card';
import styles from './post-list.module.css';

interface PostListProps {
  source: PostListSource;
  sort: Sort;
  /** Accessible name of the feed, e.g. "Posts from people you follow". */
  label: string;
  /** What to show when there are no posts at all. */
  empty: ReactNode;
  /** Cards shown first, in this order, marked "Pinned", and left out of the pages below. */
  pinned?: readonly Post[];
  /** The pinned works are still loading: wait for them, so the cards do not move once they arrive. */
  pinnedPending?: boolean;
}

/** A paged list of post cards (WAI-ARIA feed), paged by PagedPosts. */
export function PostList({ source, sort, label, empty, pinned, pinnedPending = false }: PostListProps) {
  const arrange = usePinnedFirst(pinned);
  const pinnedCount = pinned?.length ?? 0;
  return (
    <PagedPosts source={source} sort={sort} empty={empty} pending={pinnedPending} arrange={arrange}>
      {({ posts, hasMore, busy, staleClassName }) => (
        <div role="feed" aria-label={label} aria-busy={busy} className={`${styles.feed} ${staleClassName ?? ''}`}>
          {posts.map((post, index) => (
            <PostCard
              key={post._id}
              post={post}
              priority={index === 0}
              pinned={index < pinnedCount}
              posinset={index + 1}
              setsize={hasMore ? -1 : posts.length}
            />
          ))}
        </div>
      )}
    </PagedPosts>
  );
}
