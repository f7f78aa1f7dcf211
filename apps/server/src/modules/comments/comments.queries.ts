import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { commentJson } from './comments.sql.js';
import type { Comment } from '@share-arts/contract';
import { JsonText } from '../../lib/json-text.js';
import { recordReaction } from '../../lib/reaction-sql.js';
import { notificationCtes } from '../../events/notification-rules.js';
import { publishSql } from '../../events/events.js';

export async function selectComment(db: Db, commentId: string, viewerId: string | null): Promise<Comment | undefined> {
  const rows = await queryRows<{ comment: Comment }>(
    db,
    sql`select ${commentJson(viewerId)} as comment
        from comments c join users cu on cu.id = c.author_id
        where c.id = ${commentId}::uuid`,
  );
  return rows[0]?.comment;
}

/**
 * The viewer's votes on these comments, by comment id (one query for a whole page of posts). The ids go
 * as one array value, so the statement is the same for any number of them.
 */
export async function selectViewerVotes(
  db: Db,
  viewerId: string,
  commentIds: string[],
): Promise<Map<string, 'up' | 'down'>> {
  const rows = await queryRows<{ comment_id: string; kind: 'up' | 'down' }>(
    db,
    sql`select comment_id, kind from comment_votes
        where user_id = ${viewerId}::uuid and comment_id = any(${`{${commentIds.join(',')}}`}::uuid[])`,
  );
  return new Map(rows.map((row) => [row.comment_id, row.kind]));
}

/** A keyset page of a post's comments, oldest or newest first. */
export async function selectCommentPage(
  db: Db,
  options: {
    postId: string;
    viewerId: string | null;
    limit: number;
    cursor?: string | undefined;
    order: 'oldest' | 'newest';
  },
): Promise<{ comments: JsonText[]; nextCursor: string | null }> {
  const desc = options.order === 'newest';
  let after = sql`true`;
  if (options.cursor) {
    const [at, id] = decodeCursor(options.cursor, ['date', 'uuid']);
    after = sql`(c.created_at, c.id) ${sql.raw(desc ? '<' : '>')} (${at}::timestamptz, ${id}::uuid)`;
  }
  const direction = sql.raw(desc ? 'desc' : 'asc');
  // As text: the answer splices each comment in without parsing and serializing it again.
  const rows = await queryRows<{ comment: string; created_at: string; id: string }>(
    db,
    sql`select ${commentJson(options.viewerId)}::text as comment, c.created_at, c.id
        from comments c join users cu on cu.id = c.author_id
        where c.post_id = ${options.postId}::uuid and ${after}
        order by c.created_at ${direction}, c.id ${direction}
        limit ${options.limit + 1}`,
  );
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    comments: page.map((row) => new JsonText(row.comment)),
    nextCursor: rows.length > options.limit && last ? encodeCursor([new Date(last.created_at), last.id]) : null,
  };
}

/** What a vote did: whether the post and the comment (on that post) exist, and `changed` false for a repeat. */
export interface VoteOutcome {
  post_found: boolean;
  found: boolean;
  changed: boolean;
}

/**
 * An up or down vote on a comment of that post, in one transaction (see recordReaction): an upvote
 * notifies the comment's author, a downvote that replaced the user's upvote withdraws that notification;
 * a vote that changed something tells every process the post's comments changed (their post caches).
 */
export async function voteOnComment(
  db: Db,
  { postId, commentId, userId, kind }: { postId: string; commentId: string; userId: string; kind: 'up' | 'down' },
): Promise<VoteOutcome> {
  return recordReaction<'up' | 'down', VoteOutcome>(db, {
    target: {
      table: 'comments',
      where: sql`t.id = ${commentId}::uuid and t.post_id = ${postId}::uuid`,
      counters: { up: 'upvote_count', down: 'downvote_count' },
    },
    reactions: { table: 'comment_votes', column: 'comment_id' },
    userId,
    kind,
    notification: {
      notifyOn: 'up',
      build: (when) =>
        notificationCtes(
          {
            recipientId: sql`target.author_id`,
            actorId: sql`${userId}::uuid`,
            kind: 'upvote',
            postId: sql`${postId}::uuid`,
            commentId: sql`target.id`,
          },
          when,
        ),
    },
    selected: sql`exists (select from posts where id = ${postId}::uuid) as post_found,
      (select count(${publishSql({ type: 'comments-changed', postId: sql`${postId}::text`, voterId: sql`${userId}::text` })}) from target, reaction) as noted`,
  });
}
