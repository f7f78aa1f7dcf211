/**
 * Moving accounts (issue 40, with the fediverse of issue 39), for the federation module: an artist's other accounts
 * (`users.also_known_as`, migration 0041), and what a `Move` of a remote person does to the follows of our
 * accounts (`follows`, the counts in `users`): each follow of the old account's shadow becomes a follow of the new
 * account, as Mastodon's MoveWorker moves its local followers.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';
import { publishSql } from '../events/events.js';

/** Sets the actor ids an account says it is also known as (the whole list, in order); answers whether it changed. */
export async function setAccountAliases(db: Db, userId: string, iris: string[]): Promise<boolean> {
  const list = sql`array[${sql.join(
    iris.map((iri) => sql`${iri}`),
    sql`, `,
  )}]::text[]`;
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update users set also_known_as = ${list}, updated_at = now()
        where id = ${userId}::uuid and remote_actor_id is null and also_known_as is distinct from ${list}
        returning id, ${publishSql({ type: 'profile-changed', userId: sql`${userId}::text` })} as noted`,
  );
  return rows.length > 0;
}

/** One follow a Move carried: its follower, the Follow of the old account it ended, and the new Follow (if sent). */
export interface MovedFollow {
  followerId: string;
  oldFolloweeId: string;
  oldActivityId: string | null;
  newActivityId: string | null;
}

/** Who moved: a remote person (their old actor's id), or one of our accounts moving away (issue 40). */
export type MoveSource = { fromIri: string } | { fromUserId: string };

/** How long one of our accounts waits before it may move again (Mastodon's cooldown). */
export const MOVE_AWAY_COOLDOWN_DAYS = 30;

/**
 * Someone moved to the account `toUserId` (another shadow account, or an account here): a remote person (`fromIri`,
 * their old actor, whose new account named it in its `also_known_as` when it is here), or one of our accounts moving
 * away (`fromUserId`, marked moved to `toUserId` in the same statement). Every follow of the old account by our
 * accounts ends, and becomes a follow of the new one — requested (`pending`, a new Follow id made from
 * `followIdPrefix` and the follower's id) when the new account is on another server, at once when it is here.
 * Nobody follows someone they block or who blocks them, and a follow already there stays as it is. Blocks and mutes
 * of the old account carry over to the new one (Mastodon's MoveWorker does so). The counts follow (the old account's
 * followers down, the new one's up, a follower's following count down where nothing was added). A Move of the same
 * remote account within 7 days of the last one moves nothing (`remote_actors.moved_at`, Mastodon's
 * `move_in_progress`), so Moves back and forth cannot make our people follow and unfollow in a loop; one of our
 * accounts moves at most once in 30 days (`users.moved_at`). Answers what it moved, for the Undo and the Follows to
 * send, or undefined when nothing moved because of those waits.
 */
export async function moveLocalFollows(
  db: Db,
  move: MoveSource & { toUserId: string; toRemote: boolean; followIdPrefix: string },
): Promise<MovedFollow[] | undefined> {
  const to = sql`${move.toUserId}::uuid`;
  const newId = move.toRemote
    ? sql`${move.followIdPrefix} || m.follower_id::text || '#follows/' || gen_random_uuid()::text`
    : sql`null::text`;
  const old =
    'fromIri' in move
      ? sql`marked as (
          update remote_actors set moved_at = now()
          where iri = ${move.fromIri} and (moved_at is null or moved_at < now() - interval '7 days')
          returning id
        ),
        old as (
          select u.id from users u join marked on marked.id = u.remote_actor_id where u.id <> ${to}
        )`
      : sql`old as (
          update users set moved_to_id = ${to}, moved_at = now(), updated_at = now()
          where id = ${move.fromUserId}::uuid and id <> ${to} and remote_actor_id is null
            and (moved_at is null or moved_at < now() - make_interval(days => ${MOVE_AWAY_COOLDOWN_DAYS}))
          returning id, ${publishSql({ type: 'profile-changed', userId: sql`${move.fromUserId}::text` })} as noted
        )`;
  const rows = await queryRows<{
    marked: number;
    follower_id: string | null;
    old_followee_id: string | null;
    old_activity_id: string | null;
    new_activity_id: string | null;
  }>(
    db,
    sql`with ${old},
        carried_blocks as (
          insert into blocks (blocker_id, blocked_id)
          select b.blocker_id, ${to} from blocks b join old on b.blocked_id = old.id where b.blocker_id <> ${to}
          on conflict do nothing
          returning blocker_id as user_id
        ),
        carried_mutes as (
          insert into mutes (muter_id, muted_id)
          select m.muter_id, ${to} from mutes m join old on m.muted_id = old.id where m.muter_id <> ${to}
          on conflict do nothing
          returning muter_id as user_id
        ),
        relations_noted as (
          select ${publishSql({
            type: 'relations-changed',
            userIds: sql`json_build_array(c.user_id::text, ${move.toUserId}::text)`,
          })}
          from (select user_id from carried_blocks union select user_id from carried_mutes) c
        ),
        moved as (
          delete from follows f using old where f.followee_id = old.id
          returning f.follower_id, f.followee_id, f.activity_id
        ),
        added as (
          insert into follows (follower_id, followee_id, pending, activity_id)
          select m.follower_id, ${to}, ${move.toRemote}, ${newId} from moved m
          where m.follower_id <> ${to}
            and not exists (select from blocks b
                            where (b.blocker_id = m.follower_id and b.blocked_id = ${to})
                               or (b.blocker_id = ${to} and b.blocked_id = m.follower_id))
            and not exists (select from remote_person_blocks rb join users t on t.remote_actor_id = rb.remote_actor_id
                            where t.id = ${to} and rb.user_id = m.follower_id)
          on conflict (follower_id, followee_id) do nothing
          returning follower_id, activity_id
        ),
        old_counted as (
          update users u set follower_count = greatest(u.follower_count - n.gone, 0)
          from (select followee_id, count(*)::int as gone from moved group by followee_id) n
          where u.id = n.followee_id
        ),
        new_counted as (
          update users set follower_count = follower_count + (select count(*)::int from added)
          where id = ${to} and exists (select from added)
        ),
        followers_counted as (
          update users u set following_count = greatest(u.following_count - 1, 0)
          from moved m
          where u.id = m.follower_id and not exists (select from added a where a.follower_id = m.follower_id)
        )
        select (select count(*) from old)::int as marked, (select count(*) from relations_noted) as relations,
               m.follower_id, m.followee_id as old_followee_id, m.activity_id as old_activity_id,
               a.activity_id as new_activity_id,
               ${publishSql({ type: 'viewer-changed', userId: sql`m.follower_id::text` })} as noted
        from (select 1) one left join moved m on true left join added a on a.follower_id = m.follower_id`,
  );
  if (!rows[0]?.marked) return undefined;
  return rows.flatMap((row) =>
    row.follower_id && row.old_followee_id
      ? [
          {
            followerId: row.follower_id,
            oldFolloweeId: row.old_followee_id,
            oldActivityId: row.old_activity_id,
            newActivityId: row.new_activity_id,
          },
        ]
      : [],
  );
}

/** Cancels one of our accounts' move (its `movedTo` goes; the follows it moved stay where they went). */
export async function cancelMoveAway(db: Db, userId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update users set moved_to_id = null, updated_at = now()
        where id = ${userId}::uuid and moved_to_id is not null
        returning id, ${publishSql({ type: 'profile-changed', userId: sql`${userId}::text` })} as noted`,
  );
  return rows.length > 0;
}
