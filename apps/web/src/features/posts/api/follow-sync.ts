import type { QueryClient } from '@tanstack/react-query';
import { onFollowSettled, type FollowSettled } from '../../people';
import { updateCachedPosts } from './post-cache';
import { postKeys } from './post-keys';

/** The posts' side of a follow: each card of the author (its menu's Follow / Following), and Home. */
function applyFollow({ userId, follows, response, failed }: FollowSettled, queryClient: QueryClient): void {
  if (failed) return;
  updateCachedPosts(
    queryClient,
    (post) => post.userId === userId,
    (post) => ({ ...post, viewer: { ...post.viewer, followsAuthor: follows } }),
  );
  if (!response) return;
  // Home shows the posts of the people I follow. Someone new to follow: their posts belong there now, even
  // while it is on screen; an unfollow waits for the next visit, so posts do not vanish under the reader.
  void queryClient.invalidateQueries({ queryKey: postKeys.listsOf('feed'), refetchType: follows ? 'active' : 'none' });
}

/**
 * People owns the follow toggle; the posts follow it from here. Registered when the posts feature is first
 * imported, which the signed-in layout does (app/live) before any Follow button or post is drawn, and kept
 * for the session, like the caches it writes.
 */
onFollowSettled(applyFollow);
