/**
 * What a remote follow writes beyond the federation module's own tables (issue 39, part 2): the followed
 * account's `remote_follower_count` (the users table), kept exact in the statement that adds or removes
 * `remote_follows` rows (and, for a remote actor that is gone, its `remote_actors` row), and the artist's
 * "started following you" notification (the notifications table, by the notification rules, as a local
 * follow's), with its events. A remote like or boost of a work (what arrives, `remote_reactions`): the post's
 * `remote_like_count` (the posts table) kept exact the same way, and the artist's "liked your post" or "boosted
 * your post" notification. Called by the federation module only, but for an artist's block of a remote person (the
 * safety module's, `blockRemotePerson`): it ends their follow, likes, boosts and notifications, and a blocked
 * person's Follow, Like and Announce add nothing.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';
import { publishSql } from '../events/events.js';
import { notificationCtes } from '../events/notification-rules.js';
import type { DeletedMedia } from './account-deletion.js';
import { removeRemoteComments, removeRemoteCommentsWhere } from './comments.js';
import { removeShadowAccounts } from './remote-people.js';

/** Whether the local account `userId` blocks the remote actor `remoteActorId` (a primary-key probe). */
const blockedByUser = (userId: SQL, remoteActorId: SQL): SQL =>
  sql`exists (select from remote_person_blocks b where b.user_id = ${userId} and b.remote_actor_id = ${remoteActorId})`;

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
          select ${follow.userId}::uuid, ${follow.remoteActorId}::uuid, ${follow.activityId}
          where not ${blockedByUser(sql`${follow.userId}::uuid`, sql`${follow.remoteActorId}::uuid`)}
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
 * Ends the remote follows `where` names (over `remote_follows rf` joined to `remote_actors ra`): the accounts'
 * remote followers count down and each follow's notification is withdrawn while unread. Answers how many ended.
 */
async function endFollowsWhere(db: Db, where: SQL): Promise<number> {
  const notification = followNotification('gone', { notify: false });
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with ${removeFollowsWhere(where)}, ${notification.ctes}
        select (select count(*)::int from gone) as n, ${notification.events}`,
  );
  return row?.n ?? 0;
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
  return endFollowsWhere(db, where);
}

/**
 * Remote actors that are gone (a `Delete` of the actor, an inbox answering 410): their follows end, with the
 * followed accounts' counts, their likes and boosts go, with the posts' like counts (sent to whoever watches
 * them), their comments go, with the posts' comment counts (removeRemoteComments, first: a statement updates a
 * post's row once), and their rows are deleted, with every notification of theirs (the foreign key), read or not,
 * as a deleted account's; whoever had one of them unread hears their unread count changed. Their shadow accounts
 * (following out) go with their works (removeShadowAccounts). Answers how many follows ended, and the pictures'
 * files, which the caller removes once this committed.
 */
export async function removeRemoteActors(
  db: Db,
  actorIris: string[],
): Promise<{ ended: number; files: DeletedMedia[] }> {
  if (actorIris.length === 0) return { ended: 0, files: [] };
  return db.transaction(async (tx) => {
    await removeRemoteComments(tx, { actorIris });
    // Following out (issue 39): their shadow accounts, works and pictures' rows go too; the files after the commit.
    const files = await removeShadowAccounts(tx, actorIris);
    return { ended: await removeActorRows(tx, actorIris), files };
  });
}

/** removeRemoteActors' one statement, once their comments are counted down and gone. */
async function removeActorRows(db: Db, actorIris: string[]): Promise<number> {
  const iris = sql`(select value from json_array_elements_text(${JSON.stringify(actorIris)}::json))`;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with ${removeFollowsWhere(sql`ra.iri in ${iris}`)},
        ${removeReactionsWhere(sql`ra.iri in ${iris}`)},
        unread as (
          select distinct n.recipient_id from notifications n join remote_actors ra on ra.id = n.remote_actor_id
          where ra.iri in ${iris} and n.read_at is null
        ),
        actors as (delete from remote_actors where iri in ${iris})
        select (select count(*)::int from gone) as n, (select told from likes_told) as liked,
          (select count(${publishSql({ type: 'unread-changed', recipientId: sql`recipient_id` })}) from unread) as told`,
  );
  return row?.n ?? 0;
}

/** A remote actor's reaction to a work: a `Like`, or an `Announce` (a boost). */
export type RemoteReactionKind = 'like' | 'boost';

/**
 * The remote actor `remoteActorId` likes or boosts the post `postId` (the activity `activityId`), which the caller
 * found public: a new one is kept, a like counts up the post's `remote_like_count`, and the post's author is
 * notified (by the notification rules: a like joins the post's likes' group, a boost the post's boosts'; sent
 * live), and the post's counts are sent to whoever watches it (`reactions`, as a local like's: the post cache reads
 * its counts again, not the whole post). One already there keeps its time and takes the new activity's id (the Undo
 * will name the newer one), and counts and notifies nothing again. A post that is gone meanwhile keeps nothing.
 * Answers whether it is new.
 */
export async function addRemoteReaction(
  db: Db,
  reaction: { postId: string; remoteActorId: string; kind: RemoteReactionKind; activityId: string },
): Promise<boolean> {
  const notification = notificationCtes(
    {
      recipientId: sql`target.author_id`,
      actorId: sql`added.remote_actor_id`,
      remote: true,
      kind: reaction.kind,
      postId: sql`added.post_id`,
    },
    { from: sql`added, target`, notifyWhen: sql`added.inserted`, withdrawWhen: sql`false` },
  );
  const [row] = await queryRows<{ inserted: boolean }>(
    db,
    sql`with target as (
          select p.id, p.author_id from posts p
          where p.id = ${reaction.postId}::uuid and not ${blockedByUser(sql`p.author_id`, sql`${reaction.remoteActorId}::uuid`)}
        ),
        added as (
          insert into remote_reactions (post_id, remote_actor_id, kind, activity_id)
          select target.id, ${reaction.remoteActorId}::uuid, ${reaction.kind}::text, ${reaction.activityId} from target
          on conflict (post_id, remote_actor_id, kind) do update set activity_id = excluded.activity_id
          returning (xmax = 0) as inserted, post_id, remote_actor_id
        ),
        counted as (
          update posts set remote_like_count = remote_like_count + 1
          where id = ${reaction.postId}::uuid and ${reaction.kind}::text = 'like'
            and exists (select from added where inserted)
          returning id
        ),
        ${notification.ctes}
        select coalesce((select inserted from added), false) as inserted, ${notification.events},
          (select count(${publishSql({ type: 'post-counts-changed', postId: sql`id::text`, reactions: sql`true` })}) from counted) as told`,
  );
  return row?.inserted ?? false;
}

/**
 * The reactions chosen by `where` (over `rr`, `remote_reactions`, and `ra`, its actor) deleted, with the
 * posts' remote like counts and the posts' counts sent to whoever watches them (CTEs `reactions_gone`,
 * `likes_counted`, `likes_told`).
 */
function removeReactionsWhere(where: SQL): SQL {
  return sql`reactions_gone as (
      delete from remote_reactions rr using remote_actors ra
      where rr.remote_actor_id = ra.id and ${where}
      returning rr.post_id, rr.remote_actor_id, rr.kind
    ),
    likes_counted as (
      update posts p set remote_like_count = p.remote_like_count - n.count
      from (select post_id, count(*)::int as count from reactions_gone where kind = 'like' group by post_id) n
      where p.id = n.post_id
      returning p.id
    ),
    likes_told as (
      select count(${publishSql({ type: 'post-counts-changed', postId: sql`id::text`, reactions: sql`true` })}) as told from likes_counted
    )`;
}

/**
 * An Undo of a Like or an Announce by the actor `actorIri`: the reaction named by its activity's id, or by its post
 * and kind, ends, a like counts down, and its notification is withdrawn while unread (a read one stays, as after
 * a local unlike). Only that actor's own: an Undo never reaches another's. Answers how many ended.
 */
export async function removeRemoteReaction(
  db: Db,
  reaction: { actorIri: string; activityId?: string; postId?: string; kind?: RemoteReactionKind },
): Promise<number> {
  if (!reaction.activityId && !reaction.postId) return 0;
  const where = sql.join(
    [
      sql`ra.iri = ${reaction.actorIri}`,
      ...(reaction.activityId ? [sql`rr.activity_id = ${reaction.activityId}`] : []),
      ...(reaction.postId ? [sql`rr.post_id = ${reaction.postId}::uuid`] : []),
      ...(reaction.kind ? [sql`rr.kind = ${reaction.kind}::text`] : []),
    ],
    sql` and `,
  );
  // The withdrawal of notificationCtes, for either kind: the notification of that actor, post and kind, to the
  // post's author, while unread.
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with ${removeReactionsWhere(where)},
        notification_withdrawn as (
          delete from notifications n using reactions_gone g, posts p
          where p.id = g.post_id and n.recipient_id = p.author_id and n.remote_actor_id = g.remote_actor_id
            and n.kind = g.kind and n.post_id = g.post_id and n.comment_id is null and n.read_at is null
          returning n.recipient_id
        )
        select (select count(*)::int from reactions_gone) as n, (select told from likes_told) as told,
          (select count(${publishSql({ type: 'unread-changed', recipientId: sql`recipient_id` })})
             from (select distinct recipient_id from notification_withdrawn) withdrawn) as withdrawn`,
  );
  return row?.n ?? 0;
}

/**
 * A remote actor moved to another account (an inbound `Move`, verified by the caller): its follows of our artists
 * become the new actor's `toActorId`, each keeping its time and Follow id (the new actor's later Follow counts once:
 * one row per artist and actor). An artist the new actor follows already keeps that one follow, and an artist who
 * blocks the new actor keeps none: each account's remote follower count is counted again from what changed, so it
 * stays exact. The artists' blocks of the old actor carry over to the new one (as Mastodon's MoveWorker carries its
 * users' blocks). No one is notified. Answers how many follows the new actor has from the move.
 */
export async function moveRemoteFollows(db: Db, move: { fromIri: string; toActorId: string }): Promise<number> {
  const to = sql`${move.toActorId}::uuid`;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with old as (select id from remote_actors where iri = ${move.fromIri} and id <> ${to}),
        carried as (
          insert into remote_person_blocks (user_id, remote_actor_id)
          select b.user_id, ${to} from remote_person_blocks b join old on b.remote_actor_id = old.id
          on conflict (user_id, remote_actor_id) do nothing
        ),
        moved as (
          delete from remote_follows rf using old where rf.remote_actor_id = old.id
          returning rf.user_id, rf.activity_id, rf.created_at
        ),
        added as (
          insert into remote_follows (user_id, remote_actor_id, activity_id, created_at)
          select m.user_id, ${to}, m.activity_id, m.created_at from moved m
          where not ${blockedByUser(sql`m.user_id`, to)}
            and not exists (select from remote_person_blocks b join old on b.remote_actor_id = old.id
                            where b.user_id = m.user_id)
          on conflict (user_id, remote_actor_id) do nothing
          returning user_id
        ),
        counted as (
          update users u set remote_follower_count = u.remote_follower_count - n.gone
            + (select count(*)::int from added a where a.user_id = u.id)
          from (select user_id, count(*)::int as gone from moved group by user_id) n
          where u.id = n.user_id
        )
        select (select count(*)::int from added) as n`,
  );
  return row?.n ?? 0;
}

// ── Safety across servers (issue 39): the moderation module's server blocks, the inbox's Block and Flag ─────────

/** The host of an actor's id (lower case), in SQL. */
const IRI_HOST = sql`lower(regexp_replace(ra.iri, '^[a-zA-Z][a-zA-Z0-9+.-]*://([^/?#]*@)?([^/:?#]+).*$', '\\2'))`;

/**
 * A server is suspended (a server block, written by the moderation module): the follows of our artists by its
 * actors (the domain and its subdomains) end, each account's remote follower count with them, their unread
 * notifications withdrawn; their comments (replies) go, each work's comment count with them (as Mastodon's
 * suspension removes a domain's posts), and their shadow accounts with their works (following out). Answers how many
 * follows ended. The actors' rows stay (a block lifted lets them follow again).
 */
export async function endServerFollows(db: Db, domain: string): Promise<number> {
  const subdomains = `%.${domain.replace(/[\\%_]/g, '\\$&')}`;
  const where = sql`(${IRI_HOST} = ${domain} or ${IRI_HOST} like ${subdomains})`;
  await removeRemoteCommentsWhere(db, where);
  // Following out: its people's shadow accounts go with their works (nobody here follows them any more). Their
  // pictures' files are left to the media module's hourly sweep of files without a row (this runs in the caller's
  // transaction, which knows nothing of files).
  const shadows = await queryRows<{ iri: string }>(
    db,
    sql`select ra.iri from remote_actors ra join users u on u.remote_actor_id = ra.id where ${where}`,
  );
  await removeShadowAccounts(
    db,
    shadows.map((row) => row.iri),
  );
  return endFollowsWhere(db, where);
}

/**
 * A remote actor blocks a local artist (an inbound `Block`): kept (`remote_blocks`, with the Block's id, which its
 * Undo may name), and that actor's follow of the artist ends, as an Undo of it would.
 */
export async function addRemoteBlock(
  db: Db,
  block: { userId: string; actorIri: string; activityId: string },
): Promise<void> {
  const notification = followNotification('gone', { notify: false });
  await queryRows(
    db,
    sql`with blocked as (
          insert into remote_blocks (user_id, actor_iri, activity_id)
          values (${block.userId}::uuid, ${block.actorIri}, ${block.activityId})
          on conflict (user_id, actor_iri) do update set activity_id = excluded.activity_id
          returning user_id
        ),
        ${removeFollowsWhere(sql`ra.iri = ${block.actorIri} and rf.user_id = ${block.userId}::uuid`)},
        ${notification.ctes}
        select (select count(*)::int from blocked) as n, ${notification.events}`,
  );
}

/** The `Undo` of a remote actor's Block: of the artist `userId`, or of the Block named by its id. */
export async function removeRemoteBlock(
  db: Db,
  block: { actorIri: string; userId?: string | undefined; activityId?: string | undefined },
): Promise<number> {
  const which = block.userId
    ? sql`user_id = ${block.userId}::uuid`
    : block.activityId
      ? sql`activity_id = ${block.activityId}`
      : undefined;
  if (!which) return 0;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (delete from remote_blocks where actor_iri = ${block.actorIri} and ${which} returning 1)
        select count(*)::int as n from gone`,
  );
  return row?.n ?? 0;
}

/**
 * The CTEs `commented`, the works of `userId` the remote actor commented on (`when` holds), and `commented_told`:
 * each is told changed (`comments-changed`), as those comments are hidden or shown again (safety.sql.ts).
 */
export const commentedWorks = (userId: SQL, remoteActorId: SQL, when: SQL): SQL =>
  sql`commented as (
      select distinct c.post_id from comments c join posts p on p.id = c.post_id
      where p.author_id = ${userId} and c.remote_actor_id = ${remoteActorId} and ${when}
    ),
    commented_told as (
      select count(${publishSql({ type: 'comments-changed', postId: sql`post_id::text` })}) as told from commented
    )`;

/** The remote actor a local block names: its id and inbox (the Block and its Undo go there), and the Block's id. */
export interface BlockedRemotePerson {
  iri: string;
  inbox: string;
  /** The Block's id is `{the artist's actor}#blocks/{blockId}`. */
  blockId: string;
}

/**
 * An artist blocks someone on another server (the safety module's block, issue 39): kept (`remote_person_blocks`),
 * and in the same statement their follow of the artist ends (the artist's remote follower count), their likes and
 * boosts of the artist's works go (the works' like counts, sent to whoever watches them), and every notification of
 * theirs to the artist goes, read or not (the artist hears their unread count); the works they commented on are told
 * changed (their comments are hidden there). Answers the actor and the Block's id when the block is new; null when it
 * was there already or the actor is not known here.
 */
export async function blockRemotePerson(
  db: Db,
  block: { userId: string; remoteActorId: string },
): Promise<BlockedRemotePerson | null> {
  const user = sql`${block.userId}::uuid`;
  const actor = sql`${block.remoteActorId}::uuid`;
  const [row] = await queryRows<{ iri: string | null; inbox: string | null; block_id: string | null }>(
    db,
    sql`with blocked as (
          insert into remote_person_blocks (user_id, remote_actor_id)
          select ${user}, ra.id from remote_actors ra where ra.id = ${actor}
          on conflict (user_id, remote_actor_id) do nothing
          returning block_id
        ),
        ${removeFollowsWhere(sql`ra.id = ${actor} and rf.user_id = ${user} and exists (select from blocked)`)},
        ${removeReactionsWhere(
          sql`ra.id = ${actor} and exists (select from blocked)
            and rr.post_id in (select p.id from posts p where p.author_id = ${user})`,
        )},
        notifications_gone as (
          delete from notifications n
          where n.recipient_id = ${user} and n.remote_actor_id = ${actor} and exists (select from blocked)
          returning n.read_at
        ),
        ${commentedWorks(user, actor, sql`exists (select from blocked)`)}
        select ra.iri, ra.inbox, (select block_id::text from blocked) as block_id,
          (select told from likes_told) as told, (select told from commented_told) as commented,
          (select count(${publishSql({ type: 'unread-changed', recipientId: sql`${block.userId}::uuid` })})
             from (select 1 from notifications_gone where read_at is null limit 1) unread) as unread
        from remote_actors ra where ra.id = ${actor}`,
  );
  return row?.iri && row.inbox && row.block_id ? { iri: row.iri, inbox: row.inbox, blockId: row.block_id } : null;
}

/**
 * A report from a remote server's moderators (an inbound `Flag`): one open report per target in the moderation
 * queue (the reports table), naming the server (`origin_domain`, no local reporter), reason `other`, the Flag's
 * words as its note. A target the server reported already, still open, is not reported again. Answers how many
 * reports are new.
 */
export async function addRemoteReports(
  db: Db,
  report: { domain: string; note: string; targets: { type: 'post' | 'comment' | 'user'; id: string }[] },
): Promise<number> {
  if (report.targets.length === 0) return 0;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with added as (
          insert into reports (origin_domain, target_type, target_id, reason, note)
          select ${report.domain}, t.type, t.id::uuid, 'other', ${report.note}
          from json_to_recordset(${JSON.stringify(report.targets)}::json) as t(type text, id text)
          on conflict (origin_domain, target_type, target_id) where status = 'open' and origin_domain is not null
          do nothing
          returning 1
        )
        select count(*)::int as n from added`,
  );
  return row?.n ?? 0;
}
