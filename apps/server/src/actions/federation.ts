/**
 * What a remote follow writes beyond the federation module's own tables (issue 39, part 2): the followed
 * account's `remote_follower_count` (the users table), kept exact in the statement that adds or removes
 * `remote_follows` rows (and, for a remote actor that is gone, its `remote_actors` row). Called by the
 * federation module only.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';

/**
 * The remote actor `remoteActorId` follows `userId` (the Follow's id `activityId`): a new follow counts up the
 * account's remote followers; a follow already there keeps its time and takes the new Follow's id (a repeated
 * Follow, whose Undo will name the newer one). Answers whether the follow is new.
 */
export async function addRemoteFollow(
  db: Db,
  follow: { userId: string; remoteActorId: string; activityId: string },
): Promise<boolean> {
  const [row] = await queryRows<{ inserted: boolean }>(
    db,
    sql`with added as (
          insert into remote_follows (user_id, remote_actor_id, activity_id)
          values (${follow.userId}::uuid, ${follow.remoteActorId}::uuid, ${follow.activityId})
          on conflict (user_id, remote_actor_id) do update set activity_id = excluded.activity_id
          returning (xmax = 0) as inserted
        ),
        counted as (
          update users set remote_follower_count = remote_follower_count + 1
          where id = ${follow.userId}::uuid and exists (select from added where inserted)
        )
        select coalesce((select inserted from added), false) as inserted`,
  );
  return row?.inserted ?? false;
}

/** Deletes the follows chosen by `where` (over `rf`, `remote_follows`, and `ra`, its actor) with their counts. */
function removeFollowsWhere(where: SQL): SQL {
  return sql`gone as (
      delete from remote_follows rf using remote_actors ra
      where rf.remote_actor_id = ra.id and ${where}
      returning rf.user_id
    ),
    counted as (
      update users u set remote_follower_count = u.remote_follower_count - n.count
      from (select user_id, count(*)::int as count from gone group by user_id) n
      where u.id = n.user_id
    )`;
}

/**
 * An Undo of a Follow: the follow of `userId` by the actor `actorIri` ends (only if it is the Follow
 * `activityId` when one is named), and the account's remote followers count down. Answers how many ended.
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
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with ${removeFollowsWhere(where)} select count(*)::int as n from gone`,
  );
  return row?.n ?? 0;
}

/**
 * Remote actors that are gone (a `Delete` of the actor, an inbox answering 410): their follows end, with the
 * followed accounts' counts, and their rows are deleted. Answers how many follows ended.
 */
export async function removeRemoteActors(db: Db, actorIris: string[]): Promise<number> {
  if (actorIris.length === 0) return 0;
  const iris = sql`(select value from json_array_elements_text(${JSON.stringify(actorIris)}::json))`;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with ${removeFollowsWhere(sql`ra.iri in ${iris}`)},
        actors as (delete from remote_actors where iri in ${iris})
        select count(*)::int as n from gone`,
  );
  return row?.n ?? 0;
}
