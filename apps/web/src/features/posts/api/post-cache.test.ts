import type { Post } from '@share-arts/contract';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { applyLiveCounts } from './live-counts';
import { updateCachedPosts, type PostListData } from './post-cache';
import { postKeys } from './post-keys';

const post = (id: string, likeCount = 0): Post =>
  ({ _id: id, likes: { likeCount, dislikeCount: 0, likedBy: [], dislikedBy: [] }, commentCount: 0 }) as unknown as Post;

function setup() {
  const queryClient = new QueryClient();
  const saved = postKeys.list({ kind: 'saved' }, 'latest');
  const explore = postKeys.list({ kind: 'explore' }, 'latest');
  const page = (posts: Post[]): PostListData => ({ pages: [{ posts, nextCursor: null }], pageParams: [null] });
  queryClient.setQueryData(saved, page([post('a')]));
  queryClient.setQueryData(explore, page([post('a'), post('b')]));
  return { queryClient, saved, explore };
}

describe('cached post updates', () => {
  it('leave a list invalidated for its next showing invalidated, changed or not', async () => {
    const { queryClient, saved } = setup();
    await queryClient.invalidateQueries({ queryKey: postKeys.listsOf('saved'), refetchType: 'none' });
    // A live count for a post the saved list does not hold: that list is not touched at all.
    applyLiveCounts(queryClient, { postId: 'b', likeCount: 3, commentCount: 0 });
    expect(queryClient.getQueryState(saved)?.isInvalidated).toBe(true);
    // One it holds: its copy changes, and the list stays due for a refetch.
    applyLiveCounts(queryClient, { postId: 'a', likeCount: 2, commentCount: 1 });
    const data = queryClient.getQueryData<PostListData>(saved);
    expect(data?.pages[0]?.posts[0]?.likes.likeCount).toBe(2);
    expect(queryClient.getQueryState(saved)?.isInvalidated).toBe(true);
  });

  it('write only the queries whose posts change', () => {
    const { queryClient, saved, explore } = setup();
    const before = queryClient.getQueryData(saved);
    updateCachedPosts(
      queryClient,
      (cached) => cached._id === 'b',
      (cached) => ({ ...cached, commentCount: 5 }),
    );
    expect(queryClient.getQueryData(saved)).toBe(before);
    expect(queryClient.getQueryData<PostListData>(explore)?.pages[0]?.posts[1]?.commentCount).toBe(5);
  });
});
