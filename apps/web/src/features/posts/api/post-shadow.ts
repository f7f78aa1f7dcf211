import type { Post } from '@share-arts/contract';
import { createShadow } from '../../../lib/shadow';
import { useFollowShadow } from '../../people';

/** Likes and saves asked for but not confirmed yet, by post id (the follow of its author is people's). */
interface PostShadow {
  liked?: boolean;
  bookmarked?: boolean;
}

export const postShadow = createShadow<PostShadow>();

/** The post as the viewer should see it: the cached copy with unconfirmed likes, saves and follows applied. */
export function applyShadow(post: Post, shadow: PostShadow | undefined, followsAuthor: boolean | undefined): Post {
  if (!shadow && followsAuthor === undefined) return post;
  const liked = shadow?.liked ?? post.viewer.liked;
  const delta = liked === post.viewer.liked ? 0 : liked ? 1 : -1;
  return {
    ...post,
    likes: { ...post.likes, likeCount: Math.max(0, post.likes.likeCount + delta) },
    viewer: {
      ...post.viewer,
      liked,
      disliked: liked ? false : post.viewer.disliked,
      bookmarked: shadow?.bookmarked ?? post.viewer.bookmarked,
      followsAuthor: followsAuthor ?? post.viewer.followsAuthor,
    },
  };
}

/** `post` with the viewer's pending changes applied; re-renders when they change. */
export function useShadowedPost(post: Post): Post {
  const shadow = postShadow.useEntry(post._id);
  const followsAuthor = useFollowShadow(post.userId);
  return applyShadow(post, shadow, followsAuthor);
}
