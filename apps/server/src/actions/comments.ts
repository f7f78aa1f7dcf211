/**
 * What a comment action reads and writes of the posts module's table: the post a comment belongs to
 * (that it exists; locked while one of its comments is added or removed) and its comment count, kept
 * exact in the transaction that adds or removes the comment. Called by the comments module, and by the
 * federation module for the replies that arrive from other servers (issue 39: remote comments).
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';
import { comments, posts } from '../db/schema.js';
import { publish, publishSql } from '../events/events.js';
import { notificationCtes, notify, notifyMentions, unreadMentionRecipients } from '../events/notification-rules.js';

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
  allow: (authors: { postAuthorId: string; commentAuthorId: string | null }) => void,
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
    // A reply from another server (no author here) mentions nobody here.
    const mentioned = comment.authorId
      ? await unreadMentionRecipients(tx, { actorId: comment.authorId, postId, commentId })
      : [];
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
    if (comment.authorId && comment.authorId !== post.authorId) {
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

/** A reply from another server (issue 39, what arrives), as the federation module read it from its Note. */
export interface RemoteComment {
  /** The work it answers, which the caller found public. */
  postId: string;
  remoteActorId: string;
  /** The Note's id (unique: the same Note twice is one comment) and the page it names (or its id). */
  noteIri: string;
  noteUrl: string;
  /** Its words as the site keeps a comment's: text, links as their URLs. */
  content: string;
}

/**
 * A reply from the fediverse becomes a comment on its work, in one statement: counted in the post's comment count,
 * the post's author notified as of a local comment (the notification rules, with the remote actor: "commented on
 * your post", sent live) and the post's counts sent to whoever watches it. The same Note again adds nothing. It is
 * never sent back out: no `comment-published`. Answers the new comment's id (undefined when it was there, or the
 * post is gone).
 */
export async function addRemoteComment(db: Db, comment: RemoteComment): Promise<string | undefined> {
  const notification = notificationCtes(
    {
      recipientId: sql`target.author_id`,
      actorId: sql`added.remote_actor_id`,
      remote: true,
      kind: 'comment',
      postId: sql`added.post_id`,
      commentId: sql`added.id`,
    },
    { from: sql`added, target`, notifyWhen: sql`true`, withdrawWhen: sql`false` },
  );
  const [row] = await queryRows<{ id: string | null }>(
    db,
    sql`with target as (select p.id, p.author_id from posts p where p.id = ${comment.postId}::uuid),
        added as (
          insert into comments (post_id, remote_actor_id, note_iri, note_url, content)
          select target.id, ${comment.remoteActorId}::uuid, ${comment.noteIri}, ${comment.noteUrl}, ${comment.content}
          from target
          on conflict (note_iri) do nothing
          returning id, post_id, remote_actor_id
        ),
        counted as (
          update posts set comment_count = comment_count + 1 where id in (select post_id from added) returning id
        ),
        ${notification.ctes}
        select (select id from added) as id, ${notification.events},
          (select count(${publishSql({ type: 'post-counts-changed', postId: sql`id::text` })}) from counted) as told`,
  );
  return row?.id ?? undefined;
}

/**
 * The `Update` of a remote comment's Note by its own actor (`actorIri`): new words, marked edited (words the same as
 * before change nothing), and every process told the post's comments changed. Answers whether it changed.
 */
export async function editRemoteComment(
  db: Db,
  edit: { actorIri: string; noteIri: string; content: string },
): Promise<boolean> {
  const rows = await queryRows<{ post_id: string }>(
    db,
    sql`with edited as (
          update comments c set content = ${edit.content}, edited = true, updated_at = now()
          from remote_actors ra
          where ra.id = c.remote_actor_id and ra.iri = ${edit.actorIri} and c.note_iri = ${edit.noteIri}
            and c.content <> ${edit.content}
          returning c.post_id
        )
        select post_id, ${publishSql({ type: 'comments-changed', postId: sql`post_id::text` })} as told from edited`,
  );
  return rows.length > 0;
}

/**
 * Remote comments deleted, only of their own actors (`actorIris`; with `noteIri`, that Note's alone: its `Delete`).
 * Deleting a remote actor calls this first, so that its comments are counted before its row takes them. Answers
 * how many went.
 */
export async function removeRemoteComments(db: Db, which: { actorIris: string[]; noteIri?: string }): Promise<number> {
  if (which.actorIris.length === 0) return 0;
  const where: SQL = sql`ra.iri in (select value from json_array_elements_text(${JSON.stringify(which.actorIris)}::json))${
    which.noteIri ? sql` and c.note_iri = ${which.noteIri}` : sql``
  }`;
  return removeRemoteCommentsWhere(db, where);
}

/**
 * The remote comments chosen by `where` (over `c`, comments, and `ra`, their remote actor) deleted, with their
 * votes and notifications (foreign keys): the posts' comment counts go down by those still counted (a comment a
 * moderator hid or removed had left the count already), and the posts' counts and their authors' unread counts
 * are sent. Answers how many went.
 */
export async function removeRemoteCommentsWhere(db: Db, where: SQL): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (
          delete from comments c using remote_actors ra
          where c.remote_actor_id = ra.id and ${where}
          returning c.post_id, c.moderation_state
        ),
        counted as (
          update posts p set comment_count = p.comment_count - n.count
          from (select post_id, count(*)::int as count from gone where moderation_state is null group by post_id) n
          where p.id = n.post_id
          returning p.id
        ),
        touched as (select p.id, p.author_id from posts p where p.id in (select post_id from gone))
        select (select count(*)::int from gone) as n,
          (select count(${publishSql({ type: 'post-counts-changed', postId: sql`id::text` })}) from touched) as told,
          (select count(${publishSql({ type: 'unread-changed', recipientId: sql`author_id` })})
             from (select distinct author_id from touched) authors) as unread`,
  );
  return row?.n ?? 0;
}
