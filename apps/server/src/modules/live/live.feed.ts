import { notificationAction, REPORT_RESOLVED_TEXT, type LiveNotification } from '@share-arts/contract';
import type { LiveItem, NotificationsService } from '../notifications/index.js';
import { send } from './live.protocol.js';
import type { Connection, HeldFrame } from './live.registry.js';

/**
 * The notification frames of one connection, in order and each once: new ones as they happen, and what
 * it missed (a reconnect, or a lost listener) before the ones that arrive meanwhile.
 */
export function createNotificationFeed(notifications: NotificationsService) {
  const toFrame = (item: LiveItem, unreadCount: number, replay: boolean): LiveNotification => ({
    type: 'notification',
    ...item,
    text:
      item.kind === 'report-resolved'
        ? REPORT_RESOLVED_TEXT
        : // Someone on another server by their handle (issue 39): "@bob@mastodon.example started following you".
          `${item.actor.remote ? `@${item.actor.remote.handle}` : item.actor.username} ${notificationAction(item.kind, item.commentId !== null)}${
            // "ana added a work to Moth diaries" (issue 41).
            item.series ? ` ${item.series.title}` : ''
          }${
            // "sana added your work to Figure references" (issue 41).
            item.collection ? ` ${item.collection.title}` : ''
          }`,
    unreadCount,
    replay,
  });

  /** Sends a frame, or holds it while the connection is being signed in (see Connection.held). */
  function deliver(connection: Connection, frame: HeldFrame) {
    if (connection.held) connection.held.push(frame);
    else {
      if (frame.type === 'notification') {
        if (connection.replayed.has(frame.id)) return;
        connection.lastEventId = frame.id;
      }
      send(connection, frame);
    }
  }

  return {
    toFrame,
    deliver,

    /** Sends the frames held while the connection signed in (nothing was replayed). */
    release(connection: Connection) {
      const held = connection.held ?? [];
      connection.held = null;
      for (const item of held) deliver(connection, item);
    },

    /** Sends what a connection missed since its last notification (a reconnect, or a lost listener). */
    async catchUp(connection: Connection) {
      const userId = connection.userId!;
      connection.held ??= [];
      try {
        const missed = connection.lastEventId ? await notifications.missedSince(userId, connection.lastEventId) : [];
        const unreadCount = await notifications.unreadCount(userId);
        const sent = new Set<string>();
        connection.replayed = sent;
        for (const item of missed) {
          const frame = toFrame(item, unreadCount, true);
          sent.add(frame.id);
          connection.lastEventId = frame.id;
          send(connection, frame);
        }
        send(connection, { type: 'unread', unreadCount });
        for (const frame of connection.held) {
          if (frame.type === 'notification') {
            if (sent.has(frame.id)) continue;
            connection.lastEventId = frame.id;
          }
          send(connection, frame);
        }
      } finally {
        connection.held = null;
      }
    },
  };
}

export type NotificationFeed = ReturnType<typeof createNotificationFeed>;
