import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
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
  kind: 'like' | 'comment' | 'upvote' | 'follow' | 'mention';
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

/** A notification's key as SQL values of the statement it is part of (an absent id is null). */
export interface NotificationKeySql {
  recipientId: SQL;
  actorId: SQL;
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
  // As in `matches`: `=` or `is null`, which the actor and post index serves.
  const same = sql`n.recipient_id = ${key.recipientId} and n.actor_id = ${key.actorId} and n.kind = ${key.kind}::text
    and ${key.postId ? sql`n.post_id = ${key.postId}` : sql`n.post_id is null`}
    and ${key.commentId ? sql`n.comment_id = ${key.commentId}` : sql`n.comment_id is null`}`;
  const notNotifyingOneself = sql`${key.recipientId} <> ${key.actorId}`;
  return {
    ctes: sql`
      notification_replaced as (
        delete from notifications n using ${from} where ${notifyWhen} and ${notNotifyingOneself} and ${same}
      ),
      notification_created as (
        insert into notifications (recipient_id, actor_id, kind, post_id, comment_id)
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
