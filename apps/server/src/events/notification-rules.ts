import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';
import { notifications } from '../db/schema.js';
import { publish, publishSql } from './events.js';

/**
 * The notification rules: which actions notify whom, and how undoing an action withdraws its notification.
 * They write the notifications table as a consequence of another module's write (a like, a follow, a
 * comment), in that write's transaction or statement, and send the events that follow.
 */

export interface NotificationKey {
  recipientId: string;
  actorId: string;
  /** `boost`: a remote actor's Announce of a post (issue 39), never a local account's. */
  kind: 'like' | 'comment' | 'upvote' | 'follow' | 'mention' | 'boost';
  postId?: string | null;
  commentId?: string | null;
}

/** `=` or `is null`, never `is not distinct from`, which no index serves (notifications_actor_post_idx). */
const matches = (key: NotificationKey) =>
  and(
    eq(notifications.recipientId, key.recipientId),
    eq(notifications.actorId, key.actorId),
    eq(notifications.kind, key.kind),
    key.postId ? eq(notifications.postId, key.postId) : isNull(notifications.postId),
    key.commentId ? eq(notifications.commentId, key.commentId) : isNull(notifications.commentId),
  );

/**
 * Records a notification in the caller's transaction; never for one's own action. An earlier row for
 * the same actor and action is replaced, so liking, unliking and liking again leaves one unread row.
 */
export async function notify(tx: Db, key: NotificationKey): Promise<void> {
  if (key.recipientId === key.actorId) return;
  // Never between a blocked pair (issue 23); the blocked person is not told either. Nor anyone on another server.
  const [pair] = await queryRows<{ blocked: boolean; local: boolean }>(
    tx,
    sql`select ${blockedBetween(sql`${key.recipientId}::uuid`, sql`${key.actorId}::uuid`)} as blocked,
          ${localRecipient(sql`${key.recipientId}::uuid`)} as local`,
  );
  if (pair?.blocked || !pair?.local) return;
  await tx.delete(notifications).where(matches(key));
  const [row] = await tx
    .insert(notifications)
    .values({
      recipientId: key.recipientId,
      actorId: key.actorId,
      kind: key.kind,
      postId: key.postId ?? null,
      commentId: key.commentId ?? null,
    })
    .returning({ id: notifications.id });
  await publish(tx, { type: 'notification-added', recipientId: key.recipientId, notificationId: row!.id });
}

/**
 * Whether `a` and `b` are a blocked pair, either way (issue 23): no notification passes between them. The
 * safety module's blockedBetween, written here because events depend on no module.
 */
const blockedBetween = (a: SQL, b: SQL): SQL =>
  sql`(exists (select from blocks bl where bl.blocker_id = ${a} and bl.blocked_id = ${b})
    or exists (select from blocks bl where bl.blocker_id = ${b} and bl.blocked_id = ${a}))`;

/**
 * Whether the recipient is an account here: a remote person's shadow account (issue 39, following out: they are
 * followed, liked and answered from here) never signs in, so nothing is written for them (nor mailed).
 */
const localRecipient = (recipientId: SQL): SQL =>
  sql`exists (select from users lr where lr.id = ${recipientId} and lr.remote_actor_id is null)`;

/**
 * Whether a remote actor may notify the recipient: always, unless a moderator silenced its server (`server_blocks`
 * `silence`, covering subdomains, issue 39); then only someone who follows them here (their server accepted), as
 * Mastodon's limited accounts reach only their followers.
 */
const remoteMayNotify = (recipientId: SQL, remoteActorId: SQL): SQL =>
  sql`not exists (
    select from remote_actors sra join server_blocks ssb on ssb.severity = 'silence'
      and (lower(substring(sra.iri from '^[a-z]+://([^/:?#]+)')) = ssb.domain
        or lower(substring(sra.iri from '^[a-z]+://([^/:?#]+)')) like '%.' || ssb.domain)
    where sra.id = ${remoteActorId}
      and not exists (
        select from users su join follows sf on sf.followee_id = su.id
        where su.remote_actor_id = sra.id and sf.follower_id = ${recipientId} and not sf.pending
      )
  )`;

/** A notification's key as SQL values of the statement it is part of (an absent id is null). */
export interface NotificationKeySql {
  recipientId: SQL;
  /** A local account's id; with `remote`, a remote actor's (remote_actors.id, issue 39). */
  actorId: SQL;
  /**
   * The actor is someone on another server (`notifications.remote_actor_id`): never the recipient, and never
   * in a blocked pair (blocks are between accounts here).
   */
  remote?: boolean;
  kind: NotificationKey['kind'];
  postId?: SQL;
  commentId?: SQL;
}

/**
 * `notify` and `withdraw` as common table expressions of a write done in one statement (one round trip,
 * its own transaction): same rules, same events. `from` is the statement's from-list that decides
 * (no row, nothing happens); `notifyWhen` and `withdrawWhen` are conditions on it. Put `ctes` in the
 * statement's WITH list and `events` in its select list, which sends the events.
 */
export function notificationCtes(
  key: NotificationKeySql,
  { from, notifyWhen, withdrawWhen }: { from: SQL; notifyWhen: SQL; withdrawWhen: SQL },
): { ctes: SQL; events: SQL } {
  const postId = key.postId ?? sql`null::uuid`;
  const commentId = key.commentId ?? sql`null::uuid`;
  const actorColumn = sql.raw(key.remote ? 'remote_actor_id' : 'actor_id');
  // As in `matches`: `=` or `is null`, which the actor and post index serves (a remote actor's: its own).
  const same = sql`n.recipient_id = ${key.recipientId} and n.${actorColumn} = ${key.actorId} and n.kind = ${key.kind}::text
    and ${key.postId ? sql`n.post_id = ${key.postId}` : sql`n.post_id is null`}
    and ${key.commentId ? sql`n.comment_id = ${key.commentId}` : sql`n.comment_id is null`}`;
  // Never oneself, never between a blocked pair (issue 23), never a remote person's shadow account (issue 39), and
  // from a silenced server only to those who follow the actor.
  const notNotifyingOneself = key.remote
    ? sql`${localRecipient(key.recipientId)} and ${remoteMayNotify(key.recipientId, key.actorId)}`
    : sql`${key.recipientId} <> ${key.actorId} and not ${blockedBetween(key.recipientId, key.actorId)}
        and ${localRecipient(key.recipientId)}`;
  return {
    ctes: sql`
      notification_replaced as (
        delete from notifications n using ${from} where ${notifyWhen} and ${notNotifyingOneself} and ${same}
      ),
      notification_created as (
        insert into notifications (recipient_id, ${actorColumn}, kind, post_id, comment_id)
        select ${key.recipientId}, ${key.actorId}, ${key.kind}::text, ${postId}, ${commentId} from ${from}
        where ${notifyWhen} and ${notNotifyingOneself}
        returning id, recipient_id
      ),
      notification_withdrawn as (
        delete from notifications n using ${from} where ${withdrawWhen} and ${same} and n.read_at is null
        returning n.recipient_id
      )`,
    events: sql`
      (select count(${publishSql({ type: 'notification-added', recipientId: sql`recipient_id`, notificationId: sql`id` })}) from notification_created) as notified,
      (select count(${publishSql({ type: 'unread-changed', recipientId: sql`recipient_id` })})
         from (select distinct recipient_id from notification_withdrawn) withdrawn) as withdrawn`,
  };
}

/**
 * Notifies the people a post or a comment mentions (`usernames`, lower case; unknown ones are skipped),
 * in the caller's transaction: never the writer, and never twice for the same post or comment, so an
 * edit notifies only the people it adds. The notification row itself is the record (a mention is never
 * withdrawn), found by notifications_actor_post_idx. Answers how many were notified.
 */
export async function notifyMentions(
  tx: Db,
  mention: { actorId: string; usernames: string[]; postId: string; commentId?: string | null },
): Promise<number> {
  if (mention.usernames.length === 0) return 0;
  const commentId = mention.commentId ?? null;
  const rows = await queryRows<{ notified: string }>(
    tx,
    sql`with mentioned as (
          select u.id from users u
          where lower(u.username) in (select value from json_array_elements_text(${JSON.stringify(mention.usernames)}::json))
            and u.remote_actor_id is null
            and u.id <> ${mention.actorId}::uuid
            and not ${blockedBetween(sql`u.id`, sql`${mention.actorId}::uuid`)}
            and not exists (
              select from notifications n
              where n.actor_id = ${mention.actorId}::uuid and n.post_id = ${mention.postId}::uuid
                and n.recipient_id = u.id and n.kind = 'mention'
                and ${commentId ? sql`n.comment_id = ${commentId}::uuid` : sql`n.comment_id is null`}
            )
        ),
        created as (
          insert into notifications (recipient_id, actor_id, kind, post_id, comment_id)
          select id, ${mention.actorId}::uuid, 'mention', ${mention.postId}::uuid, ${commentId}::uuid from mentioned
          returning id, recipient_id
        )
        select count(${publishSql({ type: 'notification-added', recipientId: sql`recipient_id`, notificationId: sql`id` })}) as notified
        from created`,
  );
  return Number(rows[0]?.notified ?? 0);
}

/**
 * The people with an unread mention in a post (`commentId` absent) or in one of its comments, by the
 * writer `actorId`: deleting the text deletes those notifications (foreign keys), and each of them must
 * hear that their unread count changed. Read before the delete, through notifications_actor_post_idx.
 */
export async function unreadMentionRecipients(
  tx: Db,
  mention: { actorId: string; postId: string; commentId?: string },
): Promise<string[]> {
  const rows = await queryRows<{ recipient_id: string }>(
    tx,
    sql`select distinct n.recipient_id from notifications n
        where n.actor_id = ${mention.actorId}::uuid and n.post_id = ${mention.postId}::uuid and n.kind = 'mention'
          and ${mention.commentId ? sql`n.comment_id = ${mention.commentId}::uuid` : sql`n.comment_id is null`}
          and n.read_at is null`,
  );
  return rows.map((row) => row.recipient_id);
}

/**
 * A work added to a series notifies the people who follow the series (issue 41, kind `series-work`), in the
 * caller's transaction: never the artist, never between a blocked pair, never for a work moderation hid. Adding
 * the same work again (after taking it out) replaces the earlier notification. Answers how many were notified.
 */
export async function notifySeriesFollowers(
  tx: Db,
  added: { actorId: string; seriesId: string; postId: string },
): Promise<number> {
  const actor = sql`${added.actorId}::uuid`;
  const series = sql`${added.seriesId}::uuid`;
  const post = sql`${added.postId}::uuid`;
  const rows = await queryRows<{ notified: string }>(
    tx,
    sql`with followers as (
          select sf.user_id as id from series_follows sf
          where sf.series_id = ${series} and sf.user_id <> ${actor}
            and not ${blockedBetween(sql`sf.user_id`, actor)}
            and exists (select from posts p where p.id = ${post} and p.moderation_state is null)
        ),
        replaced as (
          delete from notifications n using followers f
          where n.series_id = ${series} and n.post_id = ${post} and n.recipient_id = f.id and n.kind = 'series-work'
        ),
        created as (
          insert into notifications (recipient_id, actor_id, kind, post_id, series_id)
          select id, ${actor}, 'series-work', ${post}, ${series} from followers
          returning id, recipient_id
        )
        select count(${publishSql({ type: 'notification-added', recipientId: sql`recipient_id`, notificationId: sql`id` })}) as notified
        from created`,
  );
  return Number(rows[0]?.notified ?? 0);
}

/**
 * Taking a work out of a series withdraws the unread notifications of its addition (a read one stays, as every
 * withdrawal leaves it); each recipient hears that their unread count changed.
 */
export async function withdrawSeriesWork(tx: Db, removed: { seriesId: string; postId: string }): Promise<void> {
  await queryRows(
    tx,
    sql`with withdrawn as (
          delete from notifications n
          where n.series_id = ${removed.seriesId}::uuid and n.post_id = ${removed.postId}::uuid
            and n.kind = 'series-work' and n.read_at is null
          returning n.recipient_id
        )
        select count(${publishSql({ type: 'unread-changed', recipientId: sql`recipient_id` })}) as withdrawn
        from (select distinct recipient_id from withdrawn) w`,
  );
}

/**
 * Inquiries (issue 42): a new inquiry notifies the artist (`inquiry`), a message the other person
 * (`inquiry-message`), a state change the client (`inquiry-state`); a message's or a state's notification replaces
 * the earlier one of the same inquiry to the same person, so a long thread is one line in their list. Never between
 * a blocked pair, never oneself. Answers whether a notification was written.
 */
export async function notifyInquiry(
  tx: Db,
  event: {
    recipientId: string;
    actorId: string;
    kind: 'inquiry' | 'inquiry-message' | 'inquiry-state';
    inquiryId: string;
  },
): Promise<boolean> {
  if (event.recipientId === event.actorId) return false;
  const recipient = sql`${event.recipientId}::uuid`;
  const actor = sql`${event.actorId}::uuid`;
  const inquiry = sql`${event.inquiryId}::uuid`;
  const rows = await queryRows<{ notified: string }>(
    tx,
    sql`with allowed as (
          select 1 where not ${blockedBetween(recipient, actor)} and ${localRecipient(recipient)}
        ),
        replaced as (
          delete from notifications n using allowed
          where n.inquiry_id = ${inquiry} and n.recipient_id = ${recipient} and n.kind = ${event.kind}
            and ${event.kind === 'inquiry' ? sql`false` : sql`true`}
        ),
        created as (
          insert into notifications (recipient_id, actor_id, kind, inquiry_id)
          select ${recipient}, ${actor}, ${event.kind}, ${inquiry} from allowed
          returning id, recipient_id
        )
        select count(${publishSql({ type: 'notification-added', recipientId: sql`recipient_id`, notificationId: sql`id` })}) as notified
        from created`,
  );
  return Number(rows[0]?.notified ?? 0) > 0;
}

/**
 * An inquiry deleted for one person (issue 42): their notifications of it go, and they hear their unread count
 * changed.
 */
export async function withdrawInquiryNotifications(
  tx: Db,
  removed: { inquiryId: string; recipientId: string },
): Promise<void> {
  await queryRows(
    tx,
    sql`with withdrawn as (
          delete from notifications n
          where n.inquiry_id = ${removed.inquiryId}::uuid and n.recipient_id = ${removed.recipientId}::uuid
          returning n.recipient_id, n.read_at
        )
        select count(${publishSql({ type: 'unread-changed', recipientId: sql`recipient_id` })}) as withdrawn
        from (select distinct recipient_id from withdrawn where read_at is null) w`,
  );
}

/**
 * An artist opened for commissions (issue 42, kind `commissions-open`): notifies `watcherIds`, the followers who
 * asked to be told and were not told in the last day (the commissions module picks them, marking them told in the
 * same transaction), in the caller's transaction: never the artist, never between a blocked pair, never a shadow
 * account. Each opening is its own notification (never grouped, never replaced). Answers how many were notified.
 */
export async function notifyCommissionsOpen(tx: Db, artistId: string, watcherIds: string[]): Promise<number> {
  if (watcherIds.length === 0) return 0;
  const artist = sql`${artistId}::uuid`;
  const rows = await queryRows<{ notified: string }>(
    tx,
    sql`with created as (
          insert into notifications (recipient_id, actor_id, kind)
          select w.id, ${artist}, 'commissions-open'
          from unnest(${`{${watcherIds.join(',')}}`}::uuid[]) w(id)
          where w.id <> ${artist} and not ${blockedBetween(sql`w.id`, artist)} and ${localRecipient(sql`w.id`)}
          returning id, recipient_id
        )
        select count(${publishSql({ type: 'notification-added', recipientId: sql`recipient_id`, notificationId: sql`id` })}) as notified
        from created`,
  );
  return Number(rows[0]?.notified ?? 0);
}

/**
 * A work added to a public collection notifies its artist (issue 41, kind `collection-work`): "sana added your work
 * to Figure references", in the caller's transaction. `postId` absent: every work of the collection (it was just
 * made public). Never the collector's own works, never an artist on another server, never between a blocked pair,
 * never for a work moderation hid, never for a private collection. Adding the same work again replaces the earlier
 * notification. Answers how many were notified.
 */
export async function notifyCollectionArtists(
  tx: Db,
  added: { actorId: string; collectionId: string; postId?: string },
): Promise<number> {
  const actor = sql`${added.actorId}::uuid`;
  const collection = sql`${added.collectionId}::uuid`;
  const rows = await queryRows<{ notified: string }>(
    tx,
    sql`with works as (
          select p.id as post_id, p.author_id as recipient_id
          from collection_works cw
          join collections c on c.id = cw.collection_id and c.is_public
          join posts p on p.id = cw.post_id
          join users a on a.id = p.author_id
          where cw.collection_id = ${collection} ${added.postId ? sql`and cw.post_id = ${added.postId}::uuid` : sql``}
            and p.author_id <> ${actor} and p.moderation_state is null and a.remote_actor_id is null
            and not ${blockedBetween(sql`p.author_id`, actor)}
        ),
        replaced as (
          delete from notifications n using works w
          where n.collection_id = ${collection} and n.post_id = w.post_id and n.kind = 'collection-work'
        ),
        created as (
          insert into notifications (recipient_id, actor_id, kind, post_id, collection_id)
          select recipient_id, ${actor}, 'collection-work', post_id, ${collection} from works
          returning id, recipient_id
        )
        select count(${publishSql({ type: 'notification-added', recipientId: sql`recipient_id`, notificationId: sql`id` })}) as notified
        from created`,
  );
  return Number(rows[0]?.notified ?? 0);
}

/**
 * Taking a work out of a collection (`postId`), or making the collection private (every work), withdraws the
 * notifications of its addition: the unread ones when a work goes, all of them when the collection turns private
 * (a private collection is named to nobody). Each recipient hears that their unread count changed.
 */
export async function withdrawCollectionWorks(
  tx: Db,
  removed: { collectionId: string; postId?: string },
): Promise<void> {
  await queryRows(
    tx,
    sql`with withdrawn as (
          delete from notifications n
          where n.collection_id = ${removed.collectionId}::uuid and n.kind = 'collection-work'
            ${removed.postId ? sql`and n.post_id = ${removed.postId}::uuid and n.read_at is null` : sql``}
          returning n.recipient_id, n.read_at
        )
        select count(${publishSql({ type: 'unread-changed', recipientId: sql`recipient_id` })}) as withdrawn
        from (select distinct recipient_id from withdrawn where read_at is null) w`,
  );
}
