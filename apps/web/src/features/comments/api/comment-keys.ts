import { postKeys } from '../../posts';

/** The order a post's comments are read in: oldest first (the default) or newest first. */
export type CommentOrder = 'oldest' | 'newest';

/** Query keys of comments: one paged list per post and order, all under the post's prefix. */
export const commentKeys = {
  all: ['comments'] as const,
  ofPost: (postId: string) => [...commentKeys.all, 'post', postId] as const,
  list: (postId: string, order: CommentOrder) => [...commentKeys.ofPost(postId), order] as const,
  /**
   * Mutation key of every write (add, edit, delete) on a post's comments. The posts feature's key: it
   * leaves the post's comment count alone while one is under way (see posts/api/live-counts.ts).
   */
  writes: (postId: string) => postKeys.commentWrites(postId),
};

/** RFC 7240: the client does not need the first page of posts (or of comments) back after a write. */
export const PREFER_MINIMAL = { prefer: 'return=minimal' } as const;
