import { sql } from 'drizzle-orm';
import {
  NOTIFICATION_ACTOR_CAP,
  PAGE_LIMITS,
  type Notification,
  type NotificationPage,
  type PageQuery,
} from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { isoDate } from '../../lib/sql-json.js';
import { DEFAULT_POST_PIC_URL } from '../../lib/assets.js';
import { mediaUrl } from '../media/index.js';
import { toUserSummary, type SummaryRow } from '../users/index.js';
import { publish } from '../../events/events.js';

/** Likes of one post and upvotes of one comment form one group; every comment and follow is its own. */
const GROUP_KEY = sql.raw(`n.kind || ':' || case
    when n.kind = 'like' then n.post_id::text
    when n.kind = 'upvote' then n.comment_id::text
    else n.id::text end`);

interface GroupRow {
  key: string;
  kind: Notification['kind'];
  latest: Date | string;
  created_at: string;
  actor_count: number;
  actors: SummaryRow[];
  post_id: string | null;
  post_content: string | null;
  post_pic: string | null;
  comment_id: string | null;
  comment_content: string | null;
  read: boolean;
}

export function createNotificationsService({ db }: { db: Db }) {
  async function unreadCount(userId: string): Promise<number> {
    const [row] = await queryRows<{ count: number }>(
      db,
      sql`select count(distinct ${GROUP_KEY})::int as count from notifications n
          where n.recipient_id = ${userId}::uuid and n.read_at is null`,
    );
    return row?.count ?? 0;
  }

  return {
    unreadCount,

    async list(userId: string, query: PageQuery): Promise<NotificationPage> {
      const limit = query.limit ?? PAGE_LIMITS.default;
      const after = query.cursor ? decodeCursor(query.cursor, ['date', 'uuid']) : null;
      // The cursor carries the group's newest time and, as a tie-break, the id of its newest row.
      const rows = await queryRows<GroupRow & { last_id: string }>(
        db,
        sql`with groups as (
              select ${GROUP_KEY} as key, min(n.kind) as kind, max(n.created_at) as latest,
                     (array_agg(n.id order by n.created_at desc, n.id desc))[1] as last_id,
                     count(*)::int as actor_count, bool_and(n.read_at is not null) as read,
                     (array_agg(n.actor_id order by n.created_at desc))[1:${NOTIFICATION_ACTOR_CAP}] as actor_ids,
                     min(n.post_id::text)::uuid as post_id, min(n.comment_id::text)::uuid as comment_id
              from notifications n
              where n.recipient_id = ${userId}::uuid
              group by 1
            )
            select g.key, g.kind, g.latest, ${isoDate('g.latest')} as created_at, g.actor_count, g.read, g.last_id,
                   coalesce((
                     select json_agg(json_build_object('_id', u.id, 'username', u.username, 'firstName', u.first_name,
                                     'lastName', u.last_name, 'photoUrl', u.photo_url) order by a.ord)
                     from unnest(g.actor_ids) with ordinality a(id, ord) join users u on u.id = a.id
                   ), '[]'::json) as actors,
                   p.id as post_id, left(p.content, 140) as post_content,
                   (select v->>'file' from media m, jsonb_array_elements(m.variants) v
                    where m.id = p.media_id and v->>'format' = 'jpeg' order by (v->>'width')::int limit 1) as post_pic,
                   c.id as comment_id, left(c.content, 140) as comment_content
            from groups g
            left join posts p on p.id = g.post_id
            left join comments c on c.id = g.comment_id
            where ${after ? sql`(g.latest, g.last_id) < (${after[0]}::timestamptz, ${after[1]}::uuid)` : sql`true`}
            order by g.latest desc, g.last_id desc
            limit ${limit + 1}`,
      );
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        notifications: page.map((row) => ({
          key: row.key,
          kind: row.kind,
          actors: row.actors.map(toUserSummary),
          actorCount: Number(row.actor_count),
          post: row.post_id
            ? {
                _id: row.post_id,
                content: row.post_content ?? '',
                postPic: row.post_pic ? mediaUrl(row.post_pic) : DEFAULT_POST_PIC_URL,
              }
            : null,
          comment: row.comment_id ? { _id: row.comment_id, content: row.comment_content ?? '' } : null,
          createdAt: row.created_at,
          read: row.read,
        })),
        nextCursor: rows.length > limit && last ? encodeCursor([new Date(last.latest), last.last_id]) : null,
        unreadCount: await unreadCount(userId),
      };
    },

    /** Marks one group (by its key) or everything read; answers the unread count left. */
    async markRead(userId: string, key: string | undefined): Promise<number> {
      await db.transaction(async (tx) => {
        const changed = await queryRows<{ id: string }>(
          tx,
          sql`update notifications n set read_at = now()
              where n.recipient_id = ${userId}::uuid and n.read_at is null
                and ${key === undefined ? sql`true` : sql`${GROUP_KEY} = ${key}`}
              returning n.id`,
        );
        // The user's other tabs and devices update their bell.
        if (changed.length > 0) await publish(tx, { type: 'unread-changed', recipientId: userId });
      });
      return unreadCount(userId);
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
