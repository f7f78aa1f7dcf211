import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { literalLimit } from '../../lib/sql-limit.js';
import { commentVisibleTo } from '../comments/index.js';
import { commentShownTo } from '../safety/index.js';

/** A list as one PostgreSQL array literal value (drizzle would spread a JS array into several parameters). */
const arrayLiteral = (values: readonly string[]): string =>
  `{${values.map((value) => `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`).join(',')}}`;

/**
 * The Mastodon API's reads (issue 45). This module writes nothing of its own: every write goes through the other
 * modules' services. What it reads here is what Mastodon's shapes need and our services do not answer: a work's
 * sort key (to turn a `max_id` into our cursor), people's ids by username (mentions), the facts of a
 * Relationship, an artist's AI opt-out and newest work, their pins, and whom someone follows.
 */

/** A work's place in the newest-first lists ([created_at, id], the `latest` keyset); undefined when none. */
export async function selectPostKey(db: Db, postId: string): Promise<{ created_at: Date; id: string } | undefined> {
  const [row] = await queryRows<{ created_at: string | Date; id: string }>(
    db,
    sql`select created_at, id from posts where id = ${postId}::uuid`,
  );
  return row ? { created_at: new Date(row.created_at), id: row.id } : undefined;
}

/** A like's place in the viewer's liked list ([like time, post id]), or a bookmark's in their saved list. */
export async function selectReactionKey(
  db: Db,
  kind: 'like' | 'bookmark',
  userId: string,
  postId: string,
): Promise<{ created_at: Date; id: string } | undefined> {
  const rows = await queryRows<{ created_at: string | Date; id: string }>(
    db,
    kind === 'like'
      ? sql`select created_at, post_id as id from post_reactions where user_id = ${userId}::uuid and post_id = ${postId}::uuid and kind = 'like'`
      : sql`select created_at, post_id as id from bookmarks where user_id = ${userId}::uuid and post_id = ${postId}::uuid`,
  );
  const [row] = rows;
  return row ? { created_at: new Date(row.created_at), id: row.id } : undefined;
}

/** A person's username by id (the safety service names people by username), or undefined. */
export async function selectUsername(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ username: string }>(db, sql`select username from users where id = ${userId}::uuid`);
  return row?.username;
}

/** An account's id by its username (or a shadow account's `user@host`), any case. */
export async function selectUserIdByUsername(db: Db, username: string): Promise<string | undefined> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select id from users where lower(username) = lower(${username})`,
  );
  return row?.id;
}

/** What a Relationship says between the viewer and each of `ids` (unknown ids are left out). */
export async function selectRelations(db: Db, viewerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return queryRows<{
    id: string;
    following: boolean;
    requested: boolean;
    followed_by: boolean;
    blocking: boolean;
    blocked_by: boolean;
    muting: boolean;
  }>(
    db,
    sql`select u.id,
      exists (select 1 from follows f where f.follower_id = ${viewerId}::uuid and f.followee_id = u.id and not f.pending) as following,
      exists (select 1 from follows f where f.follower_id = ${viewerId}::uuid and f.followee_id = u.id and f.pending) as requested,
      exists (select 1 from follows f where f.follower_id = u.id and f.followee_id = ${viewerId}::uuid) as followed_by,
      exists (select 1 from blocks b where b.blocker_id = ${viewerId}::uuid and b.blocked_id = u.id) as blocking,
      exists (select 1 from blocks b where b.blocker_id = u.id and b.blocked_id = ${viewerId}::uuid) as blocked_by,
      exists (select 1 from mutes m where m.muter_id = ${viewerId}::uuid and m.muted_id = u.id) as muting
    from users u where u.id = any(${arrayLiteral(ids)}::uuid[])`,
  );
}

/**
 * The people `userId` follows here, newest follow first, after the follow `before` (its [created_at, followee
 * id]); one more than `limit` tells whether there is a next page. Those in a blocked pair with the viewer are left
 * out.
 */
export async function selectFollowing(
  db: Db,
  userId: string,
  viewerId: string | null,
  limit: number,
  before: { created_at: Date; id: string } | undefined,
) {
  return queryRows<{ id: string; created_at: string | Date }>(
    db,
    sql`select f.followee_id as id, f.created_at from follows f
      where f.follower_id = ${userId}::uuid and not f.pending
        ${before ? sql`and (f.created_at, f.followee_id) < (${before.created_at.toISOString()}::timestamptz, ${before.id}::uuid)` : sql``}
        ${
          viewerId
            ? sql`and not exists (select 1 from blocks b where (b.blocker_id = ${viewerId}::uuid and b.blocked_id = f.followee_id) or (b.blocker_id = f.followee_id and b.blocked_id = ${viewerId}::uuid))`
            : sql``
        }
      order by f.created_at desc, f.followee_id desc
      ${literalLimit(limit + 1)}`,
  );
}

/** A follow's place in a following list, for a `max_id` naming the followed account. */
export async function selectFollowKey(db: Db, followerId: string, followeeId: string) {
  const [row] = await queryRows<{ created_at: string | Date }>(
    db,
    sql`select created_at from follows where follower_id = ${followerId}::uuid and followee_id = ${followeeId}::uuid`,
  );
  return row ? { created_at: new Date(row.created_at), id: followeeId } : undefined;
}

/**
 * The work a comment answers and the work's artist, when the comment is there for the viewer (not hidden by a
 * moderator, not by someone suspended, not in a blocked pair or muted: the comments' own conditions). Whether the
 * work itself is there for them is the posts service's to say.
 */
export async function selectCommentPost(db: Db, commentId: string, viewerId: string | null) {
  const [row] = await queryRows<{ post_id: string; author_id: string }>(
    db,
    sql`select c.post_id, p.author_id from comments c join posts p on p.id = c.post_id
      left join users cu on cu.id = c.author_id
      where c.id = ${commentId}::uuid and ${commentVisibleTo(viewerId)} and ${commentShownTo(viewerId)}`,
  );
  return row;
}

/** What an Account shows of a person (selectPresentation reads a page's people at once; not the profile's lists). */
export interface AccountRow {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  bio: string;
  link: string;
  photo_url: string | null;
  created_at: string | Date;
  follower_count: number;
  following_count: number;
  post_count: number;
  works_signed_in_only: boolean;
  ai_training_opt_out: boolean;
  last_status_at: string | Date | null;
  remote_handle: string | null;
  remote_url: string | null;
  moved_to_id: string | null;
}

/**
 * What a page of Statuses needs besides its works, in one statement (one round trip): the Accounts of `ids` and of
 * the accounts they moved to, the accounts here that `usernames` (lower case) name, and which of `postIds` their
 * artists pinned.
 */
export async function selectPresentation(
  db: Db,
  ids: string[],
  usernames: string[],
  postIds: string[],
): Promise<{ accounts: AccountRow[]; mentions: { id: string; username: string }[]; pinned: string[] }> {
  const [row] = await queryRows<{
    accounts: AccountRow[] | null;
    mentions: { id: string; username: string }[] | null;
    pinned: string[] | null;
  }>(
    db,
    sql`with wanted as (
        select id from users where id = any(${arrayLiteral(ids)}::uuid[])
        union
        select moved_to_id from users where id = any(${arrayLiteral(ids)}::uuid[]) and moved_to_id is not null
      )
      select
        (select json_agg(json_build_object(
          'id', u.id, 'username', u.username, 'first_name', u.first_name, 'last_name', u.last_name, 'bio', u.bio,
          'link', u.link, 'photo_url', u.photo_url, 'created_at', u.created_at,
          'follower_count', u.follower_count + u.remote_follower_count, 'following_count', u.following_count,
          'post_count', u.post_count, 'works_signed_in_only', u.works_signed_in_only,
          'ai_training_opt_out', u.ai_training_opt_out, 'moved_to_id', u.moved_to_id,
          'last_status_at', (select p.created_at from posts p where p.author_id = u.id order by p.created_at desc limit 1),
          'remote_handle', ra.handle, 'remote_url', coalesce(ra.profile_url, ra.iri)))
         from wanted w join users u on u.id = w.id left join remote_actors ra on ra.id = u.remote_actor_id) as accounts,
        (select json_agg(json_build_object('id', u.id, 'username', u.username)) from users u
          where lower(u.username) = any(${arrayLiteral(usernames)}::text[]) and u.remote_actor_id is null) as mentions,
        (select json_agg(pp.post_id) from post_pins pp join posts p on p.id = pp.post_id and p.author_id = pp.user_id
          where pp.post_id = any(${arrayLiteral(postIds)}::uuid[])) as pinned`,
  );
  return { accounts: row?.accounts ?? [], mentions: row?.mentions ?? [], pinned: row?.pinned ?? [] };
}

/**
 * A person's scheduled drafts (their Mastodon scheduled statuses): how many in all, and how many on the UTC day of
 * `at` (Mastodon's `scheduled_at::date`, its database in UTC), leaving out `exceptId` (the one being moved).
 */
export async function selectScheduledCounts(
  db: Db,
  authorId: string,
  at: Date,
  exceptId: string | null,
): Promise<{ total: number; sameDay: number }> {
  const [row] = await queryRows<{ total: number; same_day: number }>(
    db,
    sql`select count(*)::int as total,
          (count(*) filter (where (scheduled_at at time zone 'UTC')::date
             = (${at.toISOString()}::timestamptz at time zone 'UTC')::date))::int as same_day
        from drafts
        where author_id = ${authorId}::uuid and scheduled_at is not null
          and (${exceptId}::uuid is null or id <> ${exceptId}::uuid)`,
  );
  return { total: row?.total ?? 0, sameDay: row?.same_day ?? 0 };
}
