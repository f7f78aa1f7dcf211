import { SOURCE_LOCALE, translate, type Locale } from '../../lib/i18n.js';
import {
  MODERATION_MESSAGES,
  PAGE_LIMITS,
  type LiveNotification,
  type Notification,
  type NotificationPage,
  type PageQuery,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import type { MediaVariant } from '../../db/schema.js';
import { DEFAULT_POST_PIC_URL } from '../../lib/assets.js';
import { jpegFor, mediaUrl } from '../media/index.js';
import { toPersonSummary } from '../users/index.js';
import { publish } from '../../events/events.js';
import {
  deleteNotifications,
  selectGroupPage,
  selectNewestNotification,
  selectNotificationsWithActor,
  selectUnreadCount,
  updateRead,
  updateReadUpTo,
  type GroupRow,
  type NotificationRow,
} from './notifications.sql.js';

/** One notification as the live stream sends it, before the stream adds its sentence and counts. */
export type LiveItem = Pick<
  LiveNotification,
  'id' | 'kind' | 'actor' | 'postId' | 'commentId' | 'series' | 'inquiry' | 'collection'
>;

/** A notification's id in the live stream: its place (created_at, id) in the order, as a cursor. */
const eventId = (row: { created_at: Date | string; id: string }) => encodeCursor([new Date(row.created_at), row.id]);

/** The place an event id stands for; anything but an id the live stream sent is a 400. */
export const decodeEventId = (id: string) => decodeCursor(id, ['date', 'uuid']);

const toLiveItem = (row: NotificationRow): LiveItem => ({
  id: eventId(row),
  kind: row.kind,
  actor: toPersonSummary(row.actor),
  postId: row.post_id,
  commentId: row.comment_id,
  ...(row.series ? { series: row.series } : {}),
  ...(row.collection ? { collection: row.collection } : {}),
  ...(row.inquiry ? { inquiry: row.inquiry } : {}),
});

/** A group as the API shows it; a report's outcome in `locale` (issue 43). */
const toNotification = (row: GroupRow, locale: Locale): Notification => ({
  key: row.key,
  kind: row.kind,
  actors: row.actors.map(toPersonSummary),
  actorCount: Number(row.actor_count),
  post: row.post_id
    ? {
        _id: row.post_id,
        content: row.post_content ?? '',
        postPic: thumbnail(row.post_pic),
      }
    : null,
  comment: row.comment_id ? { _id: row.comment_id, content: row.comment_content ?? '' } : null,
  ...(row.report_id && row.report_outcome
    ? {
        report: {
          _id: row.report_id,
          targetType: row.report_target_type ?? 'post',
          reason: row.report_reason ?? '',
          outcome: row.report_outcome,
          text: translate(locale, MODERATION_MESSAGES.outcome[row.report_outcome]),
        },
      }
    : {}),
  ...(row.series ? { series: row.series } : {}),
  ...(row.collection ? { collection: row.collection } : {}),
  ...(row.inquiry ? { inquiry: row.inquiry } : {}),
  createdAt: row.created_at,
  read: row.read,
});

/** A notification's post picture: its narrowest JPEG, shown as a thumbnail. */
function thumbnail(variants: MediaVariant[] | null): string {
  const chosen = variants ? jpegFor(variants, 0) : undefined;
  return chosen ? mediaUrl(chosen.file) : DEFAULT_POST_PIC_URL;
}

export function createNotificationsService({ db }: { db: Db }) {
  const unreadCount = (userId: string): Promise<number> => selectUnreadCount(db, userId);

  return {
    unreadCount,
    /** A page of the user's notifications, a report's outcome in the reader's language (issue 43). */
    async list(userId: string, query: PageQuery, locale: Locale = SOURCE_LOCALE): Promise<NotificationPage> {
      const limit = query.limit ?? PAGE_LIMITS.default;
      const { page, nextCursor } = await selectGroupPage(db, userId, { cursor: query.cursor, limit });
      const notifications = page.map((row) => toNotification(row, locale));
      return { notifications, nextCursor, unreadCount: await unreadCount(userId) };
    },
    /** Marks one group (by its key) or everything read; answers the unread count left. */
    async markRead(userId: string, key: string | undefined): Promise<number> {
      await db.transaction(async (tx) => {
        const changed = await updateRead(tx, userId, key);
        // The user's other tabs and devices update their bell.
        if (changed.length > 0) await publish(tx, { type: 'unread-changed', recipientId: userId });
      });
      return unreadCount(userId);
    },

    /**
     * Marks read everything up to one notification of the user (by its row's id): an app saved its notifications
     * marker there (the Mastodon client API, issue 45). The user's bells update; an id not theirs changes nothing.
     */
    async markReadUpTo(userId: string, notificationId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const changed = await updateReadUpTo(tx, userId, notificationId);
        if (changed.length > 0) await publish(tx, { type: 'unread-changed', recipientId: userId });
      });
    },

    /**
     * Deletes one notification of the user (by its row's id) or all of them: Mastodon's dismiss and clear (the
     * Mastodon client API, issue 45). Answers how many went; the user's bells update when an unread one did.
     */
    async dismiss(userId: string, notificationId: string | undefined): Promise<number> {
      return db.transaction(async (tx) => {
        const { unread, deleted } = await deleteNotifications(tx, userId, notificationId);
        if (unread) await publish(tx, { type: 'unread-changed', recipientId: userId });
        return deleted;
      });
    },

    // ── What the live stream reads ──────────────────────────────────────────────────────────────
    /** One notification of the user, or undefined once it is gone (the action was undone). */
    async one(userId: string, notificationId: string): Promise<LiveItem | undefined> {
      const [row] = await selectNotificationsWithActor(db, userId, { id: notificationId });
      return row && toLiveItem(row);
    },
    /** The user's notifications after the event id `since`, oldest first (at most LIVE.replayCap). */
    async missedSince(userId: string, since: string): Promise<LiveItem[]> {
      const rows = await selectNotificationsWithActor(db, userId, { after: decodeEventId(since) });
      return rows.map(toLiveItem);
    },
    /** The event id of the user's newest notification, null when they have none. */
    async newestEventId(userId: string): Promise<string | null> {
      const newest = await selectNewestNotification(db, userId);
      return newest ? eventId(newest) : null;
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
