import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { notifications } from '../../db/schema.js';
import { publish, publishSql } from '../live/live.events.js';

export interface NotificationKey {
  recipientId: string;
  actorId: string;
  kind: 'like' | 'comment' | 'upvote' | 'follow';
  postId?: string | null;
  commentId?: string | null;
}

const matches = (key: NotificationKey) =>
  and(
    eq(notifications.recipientId, key.recipientId),
    eq(notifications.actorId, key.actorId),
    eq(notifications.kind, key.kind),
    sql`${notifications.postId} is not distinct from ${key.postId ?? null}::uuid`,
    sql`${notifications.commentId} is not distinct from ${key.commentId ?? null}::uuid`,
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
  await publish(tx, { e: 'n', r: key.recipientId, id: row!.id });
}

/** An undone action (unlike, unfollow, a vote switched away) takes its unread notification with it. */
export async function withdraw(tx: Db, key: NotificationKey): Promise<void> {
  const removed = await tx
    .delete(notifications)
    .where(and(matches(key), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  if (removed.length > 0) await publish(tx, { e: 'u', r: key.recipientId });
}

/** A notification's key as SQL values of the statement it is part of. */
export interface NotificationKeySql {
  recipientId: SQL;
  actorId: SQL;
  kind: NotificationKey['kind'];
  postId: SQL;
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
  const commentId = key.commentId ?? sql`null::uuid`;
  const same = sql`n.recipient_id = ${key.recipientId} and n.actor_id = ${key.actorId} and n.kind = ${key.kind}::text
    and n.post_id is not distinct from ${key.postId} and n.comment_id is not distinct from ${commentId}`;
  const notNotifyingOneself = sql`${key.recipientId} <> ${key.actorId}`;
  return {
    ctes: sql`
      notification_replaced as (
        delete from notifications n using ${from} where ${notifyWhen} and ${notNotifyingOneself} and ${same}
      ),
      notification_created as (
        insert into notifications (recipient_id, actor_id, kind, post_id, comment_id)
        select ${key.recipientId}, ${key.actorId}, ${key.kind}::text, ${key.postId}, ${commentId} from ${from}
        where ${notifyWhen} and ${notNotifyingOneself}
        returning id, recipient_id
      ),
      notification_withdrawn as (
        delete from notifications n using ${from} where ${withdrawWhen} and ${same} and n.read_at is null
        returning n.recipient_id
      )`,
    events: sql`
      (select count(${publishSql({ e: 'n', r: sql`recipient_id`, id: sql`id` })}) from notification_created) as notified,
      (select count(${publishSql({ e: 'u', r: sql`recipient_id` })})
         from (select distinct recipient_id from notification_withdrawn) withdrawn) as withdrawn`,
  };
}
