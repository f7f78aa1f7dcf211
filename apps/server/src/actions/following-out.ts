/**
 * Following out (issue 39): what the answer of a remote person's server to one of our Follows writes, for the
 * federation module (the follow is the users module's row). An `Accept` marks the follow accepted
 * (`follows.pending`); a `Reject` ends it (the `follows` row) with both counters (the follower's
 * `following_count`, the shadow account's `follower_count`: the users table), as an unfollow does, and so does an
 * artist's block of that person (for the safety module). Each tells every process that the follower's follows
 * changed (`viewer-changed`), in its transaction.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, queryRowsAfterLock, type Db } from '../db/client.js';
import { publishSql } from '../events/events.js';

/**
 * Which of our follows an answer names: the Follow's id (as Mastodon and Pixelfed embed it), or, for an answer
 * whose Follow has no id, the follower (our account the embedded Follow's actor names). Always only follows of the
 * answering actor's own shadow account, so nobody answers for someone else.
 */
export interface FollowAnswer {
  actorIri: string;
  activityId?: string;
  followerId?: string;
}

/** The follows `f` an answer names, joined to the followee `u` (the answering actor's shadow account). */
function answered(answer: FollowAnswer): SQL | undefined {
  const which = answer.activityId
    ? sql`f.activity_id = ${answer.activityId}`
    : answer.followerId
      ? sql`f.follower_id = ${answer.followerId}::uuid`
      : undefined;
  if (!which) return undefined;
  return sql`follows f join users u on u.id = f.followee_id
    join remote_actors ra on ra.id = u.remote_actor_id
    where ra.iri = ${answer.actorIri} and ${which}`;
}

/**
 * Their server accepted the follow: it is no longer pending (their works come to the follower's Home). Answers
 * the followers whose follow changed (none when it was accepted already, or is not there: an Accept after an
 * unfollow changes nothing).
 */
export async function acceptRemoteFollow(db: Db, answer: FollowAnswer): Promise<string[]> {
  const follows = answered(answer);
  if (!follows) return [];
  const rows = await queryRows<{ follower_id: string; noted: number }>(
    db,
    sql`with accepted as (
          update follows a set pending = false
          from (select f.follower_id, f.followee_id from ${follows} and f.pending) t
          where a.follower_id = t.follower_id and a.followee_id = t.followee_id and a.pending
          returning a.follower_id, a.followee_id
        )
        select follower_id, ${publishSql({ type: 'viewer-changed', userId: sql`follower_id::text` })} as noted,
          ${publishSql({ type: 'follow-answered', userId: sql`follower_id::text`, followeeId: sql`followee_id::text`, accepted: sql`true` })} as answered
        from accepted`,
  );
  return rows.map((row) => row.follower_id);
}

/**
 * Their server refused the follow (or, once accepted, ended it: Mastodon sends a Reject when someone removes a
 * follower): the follow ends with both counters, as an unfollow. The two accounts' rows are locked first, in id
 * order, as every write of two users' rows does (a follow racing it cannot deadlock). Answers the followers whose
 * follow ended.
 */
export async function rejectRemoteFollow(db: Db, answer: FollowAnswer): Promise<string[]> {
  const follows = answered(answer);
  if (!follows) return [];
  return (await endFollows(db, follows, true)).map((row) => row.follower_id);
}

/**
 * An artist blocks someone on another server (the safety module's block): their follow of that person's shadow
 * account ends too, with both counts, as Mastodon's block unfollows. Answers the id of the Follow it ended (its Undo
 * is sent before the Block), or undefined when there was none.
 */
export async function endFollowOfRemotePerson(
  db: Db,
  follow: { userId: string; remoteActorId: string },
): Promise<{ activityId: string | null } | undefined> {
  const [ended] = await endFollows(
    db,
    sql`follows f join users u on u.id = f.followee_id
      where u.remote_actor_id = ${follow.remoteActorId}::uuid and f.follower_id = ${follow.userId}::uuid`,
  );
  return ended && { activityId: ended.activity_id };
}

/**
 * Ends the follows `f` (of `follows`, a from-list joined to the followee `u` with its condition), counted. `refused`:
 * their server's Reject, which each follower's browser is told of (`follow-answered`).
 */
async function endFollows(
  db: Db,
  follows: SQL,
  refused = false,
): Promise<{ follower_id: string; activity_id: string | null }[]> {
  const named = sql`select f.follower_id, f.followee_id from ${follows}`;
  return queryRowsAfterLock<{ follower_id: string; activity_id: string | null }>(
    db,
    sql`select id from users where id in (select follower_id from (${named}) n union select followee_id from (${named}) n)
        order by id for no key update`,
    sql`with ended as (
          delete from follows d using (${named}) t
          where d.follower_id = t.follower_id and d.followee_id = t.followee_id
          returning d.follower_id, d.followee_id, d.activity_id
        ),
        follower_counted as (
          update users u set following_count = u.following_count - n.count
          from (select follower_id, count(*)::int as count from ended group by follower_id) n where u.id = n.follower_id
        ),
        followee_counted as (
          update users u set follower_count = u.follower_count - n.count
          from (select followee_id, count(*)::int as count from ended group by followee_id) n where u.id = n.followee_id
        )
        select follower_id, activity_id,
          ${publishSql({ type: 'viewer-changed', userId: sql`follower_id::text` })} as noted,
          ${refused ? publishSql({ type: 'follow-answered', userId: sql`follower_id::text`, followeeId: sql`followee_id::text`, accepted: sql`false` }) : sql`null`} as answered
        from ended`,
    (locked) => locked.length > 0,
  );
}
