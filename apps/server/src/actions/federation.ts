/**
 * What a remote follow writes beyond the federation module's own tables (issue 39, part 2): the followed
 * account's `remote_follower_count` (the users table), kept exact in the statement that adds or removes
 * `remote_follows` rows (and, for a remote actor that is gone, its `remote_actors` row), and the artist's
 * "started following you" notification (the notifications table, by the notification rules, as a local
 * follow's), with its events. Called by the federation module only.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';
import { publishSql } from '../events/events.js';
import { notificationCtes } from '../events/notification-rules.js';

/** The follow notification of the rows of `from` (`user_id` followed by the remote actor `remote_actor_id`). */
const followNotification = (from: string, when: { notify: boolean }) =>
  notificationCtes(
    {
      recipientId: sql.raw(`${from}.user_id`),
      actorId: sql.raw(`${from}.remote_actor_id`),
      remote: true,
      kind: 'follow',
    },
    {
      from: sql.raw(from),
      notifyWhen: when.notify ? sql.raw(`${from}.inserted`) : sql`false`,
      withdrawWhen: when.notify ? sql`false` : sql`true`,
    },
  );

/**
 * The remote actor `remoteActorId` follows `userId` (the Follow's id `activityId`): a new follow counts up the
 * account's remote followers and notifies the artist (replacing an earlier notification of the same actor's
 * follow, as a local follow does, and sent live); a follow already there keeps its time and takes the new
 * Follow's id (a repeated Follow, whose Undo will name the newer one), and notifies nobody again. Answers
 * whether the follow is new.
 */
export async function addRemoteFollow(
  db: Db,
  follow: { userId: string; remoteActorId: string; activityId: string },
): Promise<boolean> {
  const notification = followNotification('added', { notify: true });
  const [row] = await queryRows<{ inserted: boolean }>(
    db,
    sql`with added as (
          insert into remote_follows (user_id, remote_actor_id, activity_id)
          values (${follow.userId}::uuid, ${follow.remoteActorId}::uuid, ${follow.activityId})
          on conflict (user_id, remote_actor_id) do update set activity_id = excluded.activity_id
          returning (xmax = 0) as inserted, user_id, remote_actor_id
        ),
        counted as (
          update users set remote_follower_count = remote_follower_count + 1
          where id = ${follow.userId}::uuid and exists (select from added where inserted)
        ),
        ${notification.ctes}
        select coalesce((select inserted from added), false) as inserted, ${notification.events}`,
  );
  return row?.inserted ?? false;
}

/** Deletes the follows chosen by `where` (over `rf`, `remote_follows`, and `ra`, its actor) with their counts. */
function removeFollowsWhere(where: SQL): SQL {
  return sql`gone as (
      delete from remote_follows rf using remote_actors ra
      where rf.remote_actor_id = ra.id and ${where}
      returning rf.user_id, rf.remote_actor_id
    ),
    counted as (
      update users u set remote_follower_count = u.remote_follower_count - n.count
      from (select user_id, count(*)::int as count from gone group by user_id) n
      where u.id = n.user_id
    )`;
}

/**
 * An Undo of a Follow: the follow of `userId` by the actor `actorIri` ends (only if it is the Follow
 * `activityId` when one is named), the account's remote followers count down, and the follow's notification
 * is withdrawn while unread (a read one stays, as after a local unfollow). Answers how many ended.
 */
export async function removeRemoteFollow(
  db: Db,
  follow: { userId?: string; actorIri: string; activityId?: string },
): Promise<number> {
  const where = sql.join(
    [
      sql`ra.iri = ${follow.actorIri}`,
      ...(follow.userId ? [sql`rf.user_id = ${follow.userId}::uuid`] : []),
      ...(follow.activityId ? [sql`rf.activity_id = ${follow.activityId}`] : []),
    ],
    sql` and `,
  );
  const notification = followNotification('gone', { notify: false });
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with ${removeFollowsWhere(where)}, ${notification.ctes}
        select (select count(*)::int from gone) as n, ${notification.events}`,
  );
  return row?.n ?? 0;
}

/**
 * Remote actors that are gone (a `Delete` of the actor, an inbox answering 410): their follows end, with the
 * followed accounts' counts, and their rows are deleted, with every notification of theirs (the foreign key),
 * read or not, as a deleted account's; whoever had one of them unread hears their unread count changed.
 * Answers how many follows ended.
 */
export async function removeRemoteActors(db: Db, actorIris: string[]): Promise<number> {
  if (actorIris.length === 0) return 0;
  const iris = sql`(select value from json_array_elements_text(${JSON.stringify(actorIris)}::json))`;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with ${removeFollowsWhere(sql`ra.iri in ${iris}`)},
        unread as (
          select distinct n.recipient_id from notifications n join remote_actors ra on ra.id = n.remote_actor_id
          where ra.iri in ${iris} and n.read_at is null
        ),
        actors as (delete from remote_actors where iri in ${iris})
        select (select count(*)::int from gone) as n,
          (select count(${publishSql({ type: 'unread-changed', recipientId: sql`recipient_id` })}) from unread) as told`,
  );
  return row?.n ?? 0;
}
