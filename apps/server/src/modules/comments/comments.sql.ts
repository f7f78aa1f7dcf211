import { and, eq, sql, type SQL } from 'drizzle-orm';
import { POST_REACTION_CAP, type Comment } from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';
import { comments } from '../../db/schema.js';
import { keysetPage, keysetQuery, type Keyset } from '../../lib/keyset.js';
import { isoDate, reactorsJson, remotePersonFields } from '../../lib/sql-json.js';
import { DEFAULT_AVATAR_URL } from '../../lib/assets.js';
import { literalLimit } from '../../lib/sql-limit.js';
import { JsonText } from '../../lib/json-text.js';
import { recordReaction } from '../../lib/reaction-statement.js';
import { notificationCtes } from '../../events/notification-rules.js';
import { publish, publishSql } from '../../events/events.js';
import { commentShownTo, notBlockedWith } from '../safety/index.js';

/**
 * A comment's authors, joined to `c`: the account here `cu`, or (a reply from another server, issue 39) the remote
 * actor `cra`; exactly one of the two is there.
 */
const COMMENT_AUTHORS = sql`left join users cu on cu.id = c.author_id
  left join remote_actors cra on cra.id = c.remote_actor_id`;

/**
 * A comment (alias `c`, its authors COMMENT_AUTHORS) as JSON in the contract's Comment shape, built by the
 * database: the answer sends it as it comes. A remote author is named as notifications name one (`remote`,
 * `firstName`; `userId` the remote actor's id, `username` their handle, the default photo).
 */
export function commentJson(viewerId: string | null): SQL {
  const votes = (kind: 'up' | 'down') =>
    reactorsJson({
      table: 'comment_votes',
      column: 'comment_id',
      id: sql`c.id`,
      kind,
      viewerId,
      cap: POST_REACTION_CAP,
      count: kind === 'up' ? sql`c.upvote_count` : sql`c.downvote_count`,
      // A blocked pair never see each other among the voters (the counts stay everyone's).
      seen: viewerId === null ? undefined : (voter) => notBlockedWith(viewerId, voter),
    });
  const fields = sql`
    '_id', c.id, 'postId', c.post_id, 'userId', coalesce(c.author_id, c.remote_actor_id),
    'username', coalesce(cu.username, cra.handle), 'userPhoto', coalesce(cu.photo_url, ${DEFAULT_AVATAR_URL}::text),
    'content', c.content, 'createdAt', ${isoDate('c.created_at')}, 'updatedAt', ${isoDate('c.updated_at')},
    'edited', c.edited,
    'votes', json_build_object(
      'upvoteCount', c.upvote_count, 'downvoteCount', c.downvote_count,
      'upvotedBy', ${votes('up')}, 'downvotedBy', ${votes('down')}
    ),
    'viewerVote', ${
      viewerId === null
        ? sql`null::text`
        : sql`case when c.upvote_count + c.downvote_count = 0 then null
            else (select v.kind from comment_votes v where v.comment_id = c.id and v.user_id = ${viewerId}::uuid) end`
    }`;
  return sql`case when cra.id is null then json_build_object(${fields})
    else json_build_object(${fields}, ${remotePersonFields('cra')}) end`;
}

/**
 * Moderation (issue 23), on `c` and its author `cu`: a removed comment is there for nobody, a hidden one
 * for its author only, and a suspended account's comments for nobody but its owner.
 */
export function commentVisibleTo(viewerId: string | null): SQL {
  return viewerId === null
    ? sql`c.moderation_state is null and not (cu.suspended_until is not null and cu.suspended_until > now())`
    : sql`(c.moderation_state is null or (c.moderation_state = 'hidden' and c.author_id = ${viewerId}::uuid))
        and (c.author_id = ${viewerId}::uuid or not (cu.suspended_until is not null and cu.suspended_until > now()))`;
}

/**
 * A reply from a silenced server (`server_blocks.severity = 'silence'`, its domain or a subdomain; issue 39), on `c`
 * and its remote author `cra`, is shown only to those who follow its author here (a followed remote person is a
 * shadow account, `users.remote_actor_id`), as Mastodon's StatusFilter hides a limited account's posts in threads
 * from everyone who does not follow it (the work's artist included). Comments by accounts here always pass.
 */
export function silencedReplyShownTo(viewerId: string | null): SQL {
  const follows =
    viewerId === null
      ? sql`false`
      : sql`exists (
          select from users fu join follows ff on ff.followee_id = fu.id
          where fu.remote_actor_id = cra.id and ff.follower_id = ${viewerId}::uuid and not ff.pending
        )`;
  return sql`(cra.id is null or not exists (
      select from server_blocks sb
      where sb.severity = 'silence'
        and (lower(substring(cra.iri from '^[a-z]+://([^/:?#]+)')) = sb.domain
          or lower(substring(cra.iri from '^[a-z]+://([^/:?#]+)')) like '%.' || sb.domain)
    ) or ${follows})`;
}

/**
 * The newest `cap` comments of the post `postId` as anyone sees them (viewerVote null, no viewer placed
 * first), as a JSON array, newest first: the post cache's part, which each request personalizes.
 */
export function newestCommentsJson(postId: SQL, cap: number): SQL {
  return sql`coalesce((
    select json_agg(x.comment order by x.created_at desc, x.id desc)
    from (
      select ${commentJson(null)} as comment, c.created_at, c.id
      from comments c ${COMMENT_AUTHORS}
      where c.post_id = ${postId} and ${commentVisibleTo(null)} and ${commentShownTo(null)}
        and ${silencedReplyShownTo(null)}
      order by c.created_at desc, c.id desc
      ${literalLimit(cap)}
    ) x
  ), '[]'::json)`;
}

export async function selectComment(db: Db, commentId: string, viewerId: string | null): Promise<Comment | undefined> {
  const rows = await queryRows<{ comment: Comment }>(
    db,
    sql`select ${commentJson(viewerId)} as comment
        from comments c ${COMMENT_AUTHORS}
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
  const keyset: Keyset = {
    columns: [sql`c.created_at`, sql`c.id`],
    shape: ['date', 'uuid'],
    direction: options.order === 'newest' ? 'desc' : 'asc',
  };
  const { after, orderBy, limit } = keysetQuery(keyset, options.cursor, options.limit);
  // As text: the answer splices each comment in without parsing and serializing it again.
  const rows = await queryRows<{ comment: string; created_at: string; id: string }>(
    db,
    sql`select ${commentJson(options.viewerId)}::text as comment, c.created_at, c.id
        from comments c ${COMMENT_AUTHORS}
        where c.post_id = ${options.postId}::uuid and ${commentVisibleTo(options.viewerId)}
          and ${commentShownTo(options.viewerId)} and ${silencedReplyShownTo(options.viewerId)} and ${after}
        order by ${orderBy}
        ${limit}`,
  );
  const { page, nextCursor } = keysetPage(rows, options.limit, keyset.shape, (row) => [row.created_at, row.id]);
  return { comments: page.map((row) => new JsonText(row.comment)), nextCursor };
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

/** The comment of that post, locked for the rest of the transaction; undefined when there is none. */
export async function lockCommentRow(tx: Db, postId: string, commentId: string) {
  const [comment] = await tx
    .select({ id: comments.id, authorId: comments.authorId, postId: comments.postId })
    .from(comments)
    .where(and(eq(comments.id, commentId), eq(comments.postId, postId)))
    .for('update');
  return comment;
}

/** Writes an edit (marked edited) and tells every process the post's comments changed. */
export async function updateCommentRow(tx: Db, postId: string, commentId: string, content: string): Promise<void> {
  await tx
    .update(comments)
    .set({ content, edited: true, updatedAt: sql`now()` })
    .where(eq(comments.id, commentId));
  await publish(tx, { type: 'comments-changed', postId });
}

/**
 * Whether the post is not there for this viewer, nor its comments: signed out, its author shows their works
 * to signed-in people only; for anyone but its author, a moderator hid it or suspended its author; for
 * everyone, a moderator removed it (issue 23).
 */
export async function selectPostHiddenFrom(db: Db, postId: string, viewerId: string | null): Promise<boolean> {
  const viewer = viewerId === null ? sql`null::uuid` : sql`${viewerId}::uuid`;
  const rows = await queryRows<{ hidden: boolean }>(
    db,
    sql`select (${viewerId === null ? sql`u.works_signed_in_only` : sql`false`}
          or p.moderation_state = 'removed'
          or (p.author_id is distinct from ${viewer}
              and (p.moderation_state = 'hidden' or coalesce(u.suspended_until > now(), false)))) as hidden
        from posts p join users u on u.id = p.author_id
        where p.id = ${postId}::uuid`,
  );
  return rows[0]?.hidden === true;
}

/**
 * Who may comment on the post (its author's comment policy, issue 23), for this writer: undefined when
 * there is no such post; `followed` is true for the author and for the people the author follows.
 */
export async function selectCommentPolicy(
  db: Db,
  postId: string,
  userId: string,
): Promise<{ policy: 'everyone' | 'following' | 'nobody'; followed: boolean } | undefined> {
  const rows = await queryRows<{ policy: 'everyone' | 'following' | 'nobody'; followed: boolean }>(
    db,
    sql`select p.comment_policy as policy,
          (p.author_id = ${userId}::uuid or exists (
            select from follows f where f.follower_id = p.author_id and f.followee_id = ${userId}::uuid
          )) as followed
        from posts p where p.id = ${postId}::uuid`,
  );
  return rows[0];
}
