import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { notifications } from '../../db/schema.js';
import { publish } from '../live/live.events.js';

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
