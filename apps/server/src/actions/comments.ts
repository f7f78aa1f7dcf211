/**
 * What a comment action reads and writes of the posts module's table: the post a comment belongs to
 * (that it exists; locked while one of its comments is added or removed) and its comment count, kept
 * exact in the transaction that adds or removes the comment. Called by the comments module only.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { comments, posts } from '../db/schema.js';
import { publish } from '../events/events.js';
import { notify, notifyMentions, unreadMentionRecipients } from '../events/notification-rules.js';

/** The post with its author, locked for the rest of the transaction when `lock`; undefined when there is none. */
export async function findPost(tx: Db, postId: string, lock = false) {
  const query = tx.select({ id: posts.id, authorId: posts.authorId }).from(posts).where(eq(posts.id, postId));
  const [post] = lock ? await query.for('update') : await query;
  return post;
}

/**
 * Adds a comment to a post, counts it, notifies the post's author and the people it mentions
 * (`mentions`, lower-case usernames) and tells watchers the count changed (and the fediverse's deliveries that a
 * comment was published), in one transaction; undefined when there is no such post.
 */
export async function insertComment(
  db: Db,
  { postId, userId, content, mentions }: { postId: string; userId: string; content: string; mentions: string[] },
): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    const post = await findPost(tx, postId, true);
    if (!post) return undefined;
    const [created] = await tx
      .insert(comments)
      .values({ postId, authorId: userId, content })
      .returning({ id: comments.id });
    await tx
      .update(posts)
      .set({ commentCount: sql`${posts.commentCount} + 1` })
      .where(eq(posts.id, postId));
    await notify(tx, { recipientId: post.authorId, actorId: userId, kind: 'comment', postId, commentId: created!.id });
    await notifyMentions(tx, { actorId: userId, usernames: mentions, postId, commentId: created!.id });
    await publish(tx, { type: 'post-counts-changed', postId });
    await publish(tx, { type: 'comment-published', commentId: created!.id, postId, authorId: userId });
    return created!.id;
  });
}

/**
 * Deletes a comment (with its votes) of a post and counts it down, in one transaction: the post and the
 * comment are locked first, then `allow` decides (it throws to refuse). Answers what was missing, if anything.
 */
export async function deleteComment(
  db: Db,
  { postId, commentId }: { postId: string; commentId: string },
  allow: (authors: { postAuthorId: string; commentAuthorId: string }) => void,
): Promise<'post' | 'comment' | null> {
  return db.transaction(async (tx) => {
    const post = await findPost(tx, postId, true);
    if (!post) return 'post';
    const [comment] = await tx
      .select({ authorId: comments.authorId, moderationState: comments.moderationState })
      .from(comments)
      .where(and(eq(comments.id, commentId), eq(comments.postId, postId)))
      .for('update');
    if (!comment) return 'comment';
    allow({ postAuthorId: post.authorId, commentAuthorId: comment.authorId });
    const mentioned = await unreadMentionRecipients(tx, { actorId: comment.authorId, postId, commentId });
    await tx.delete(comments).where(eq(comments.id, commentId));
    // A comment hidden or removed by a moderator had already left the count.
    if (comment.moderationState === null) {
      await tx
        .update(posts)
        .set({ commentCount: sql`${posts.commentCount} - 1` })
        .where(eq(posts.id, postId));
    }
    await publish(tx, { type: 'post-counts-changed', postId });
    // The comment's notifications went with it (the post author's, and its upvotes' to its author).
    await publish(tx, { type: 'unread-changed', recipientId: post.authorId });
    if (comment.authorId !== post.authorId) {
      await publish(tx, { type: 'unread-changed', recipientId: comment.authorId });
    }
    // And the people it mentioned.
    for (const recipientId of mentioned) {
      if (recipientId !== post.authorId && recipientId !== comment.authorId) {
        await publish(tx, { type: 'unread-changed', recipientId });
      }
    }
    return null;
  });
}
