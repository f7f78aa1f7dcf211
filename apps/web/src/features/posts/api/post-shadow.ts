import type { Post } from '@share-arts/contract';
import { useSyncExternalStore } from 'react';

/**
 * What the viewer has asked for but the server has not confirmed yet (bluesky calls it the post's
 * "shadow"). Cards draw the cached post with its shadow on top, so every copy of a post — in any list
 * or on its page — changes at once, and a list refetched mid-request cannot undo a click.
 */
interface PostShadow {
  liked?: boolean;
  bookmarked?: boolean;
}
interface AuthorShadow {
  followsAuthor?: boolean;
}

const posts = new Map<string, PostShadow>();
const authors = new Map<string, AuthorShadow>();
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function patch<T extends object>(map: Map<string, T>, id: string, change: Partial<T> | keyof T, clear = false) {
  const current = map.get(id) ?? ({} as T);
  let next: T;
  if (clear) {
    next = { ...current };
    delete next[change as keyof T];
  } else {
    next = { ...current, ...(change as Partial<T>) };
  }
  if (Object.keys(next).length === 0) map.delete(id);
  else map.set(id, next);
  emit();
}

export const postShadow = {
  get: (postId: string): PostShadow => posts.get(postId) ?? {},
  set: (postId: string, change: PostShadow) => patch(posts, postId, change),
  clear: (postId: string, field: keyof PostShadow) => patch(posts, postId, field, true),
};

export const authorShadow = {
  get: (userId: string): AuthorShadow => authors.get(userId) ?? {},
  set: (userId: string, change: AuthorShadow) => patch(authors, userId, change),
  clear: (userId: string, field: keyof AuthorShadow) => patch(authors, userId, field, true),
};

/** The post as the viewer should see it: the cached copy with unconfirmed likes, saves and follows applied. */
export function applyShadow(post: Post, shadow: PostShadow | undefined, author: AuthorShadow | undefined): Post {
  if (!shadow && !author) return post;
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
      followsAuthor: author?.followsAuthor ?? post.viewer.followsAuthor,
    },
  };
}

/** Whether the viewer has asked to follow `userId` (true/false) and the server has not confirmed it yet (undefined). */
export function useFollowShadow(userId: string): boolean | undefined {
  return useSyncExternalStore(subscribe, () => authors.get(userId))?.followsAuthor;
}

/** `post` with the viewer's pending changes applied; re-renders when they change. */
export function useShadowedPost(post: Post): Post {
  const shadow = useSyncExternalStore(subscribe, () => posts.get(post._id));
  const author = useSyncExternalStore(subscribe, () => authors.get(post.userId));
  return applyShadow(post, shadow, author);
}
