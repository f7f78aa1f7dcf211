import { sql } from 'drizzle-orm';
import { LIVE, NOTIFICATION_ACTOR_CAP, type Notification } from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';
import type { MediaVariant } from '../../db/schema.js';
import type { CursorValue } from '../../lib/cursor.js';
import { keysetPage, keysetQuery, type Keyset } from '../../lib/keyset.js';
import { isoDate } from '../../lib/sql-json.js';
import { personJson, type PersonRow } from '../users/index.js';
import { notBlockedWith } from '../safety/index.js';

/**
 * Likes of one post, boosts of one post (issue 39) and upvotes of one comment form one group; every comment and
 * follow is its own.
 */
const GROUP_KEY = sql.raw(`n.kind || ':' || case
    when n.kind in ('like', 'boost') then n.post_id::text
    when n.kind = 'upvote' then n.comment_id::text
    else n.id::text end`);

export interface GroupRow {
  key: string;
  kind: Notification['kind'];
  latest: Date | string;
  created_at: string;
  actor_count: number;
  actors: PersonRow[];
  post_id: string | null;
  post_content: string | null;
  post_pic: MediaVariant[] | null;
  comment_id: string | null;
  comment_content: string | null;
  /** report-resolved: the report and its outcome. */
  report_id: string | null;
  report_target_type: 'post' | 'comment' | 'user' | 'inquiry' | null;
  report_reason: string | null;
  report_outcome: 'dismiss' | 'hide' | 'remove' | 'mark-sensitive' | 'suspend' | null;
  /** series-work (issue 41): the series the work was added to. */
  series: SeriesRefRow | null;
  /** collection-work (issue 41): the public collection the work was added to. */
  collection: SeriesRefRow | null;
  /** inquiry, inquiry-message, inquiry-state (issue 42): the inquiry and its state. */
  inquiry: InquiryRefRow | null;
  read: boolean;
  last_id: string;
}

/** A series named by a notification, as the contract's SeriesRef. */
export interface SeriesRefRow {
  _id: string;
  slug: string;
  title: string;
  username: string;
}

/** An inquiry named by a notification (issue 42), as the contract's InquiryRef. */
export interface InquiryRefRow {
  _id: string;
  state: 'open' | 'accepted' | 'declined' | 'done';
}

/** The inquiry a notification names (alias `iq`), or null. */
const INQUIRY_REF = sql`case when iq.id is null then null else json_build_object('_id', iq.id, 'state', iq.state) end`;

/** The series a notification names (aliases `s`, the series, and `su`, its owner), or null. */
const SERIES_REF = sql`case when s.id is null then null
  else json_build_object('_id', s.id, 'slug', s.slug, 'title', s.title, 'username', su.username) end`;

/**
 * The collection a notification names (aliases `col`, the collection, and `colu`, its owner), or null: a public one
 * only (one made private takes its notifications with it; this is the belt to those braces).
 */
const COLLECTION_REF = sql`case when col.id is null or not col.is_public then null
  else json_build_object('_id', col.id, 'slug', col.slug, 'title', col.title, 'username', colu.username) end`;

/** One notification with its actor (an account here, or a remote actor), as the live stream sends it. */
export interface NotificationRow {
  actor: PersonRow;
  series: SeriesRefRow | null;
  collection: SeriesRefRow | null;
  inquiry: InquiryRefRow | null;
  id: string;
  kind: Notification['kind'];
  post_id: string | null;
  comment_id: string | null;
  created_at: Date | string;
}

// The variants of the post's first picture (alias `p`): the service picks the thumbnail by the media
// module's rule.
const POST_PIC = sql`(select m.variants from post_media pm join media m on m.id = pm.media_id
  where pm.post_id = p.id order by pm.position limit 1)`;

/**
 * Groups are ordered by their newest time and, as a tie-break, the id of their newest row: what the
 * cursor carries.
 */
const GROUP_ORDER: Keyset = { columns: [sql`g.latest`, sql`g.last_id`], shape: ['date', 'uuid'], direction: 'desc' };

export async function selectUnreadCount(db: Db, userId: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(distinct ${GROUP_KEY})::int as count from notifications n
        where n.recipient_id = ${userId}::uuid and n.read_at is null`,
  );
  return row?.count ?? 0;
}

/** A keyset page of the user's notification groups, newest first, with their actors, post and comment. */
export async function selectGroupPage(
  db: Db,
  userId: string,
  options: { cursor?: string | undefined; limit: number },
): Promise<{ page: GroupRow[]; nextCursor: string | null }> {
  const { after, orderBy, limit } = keysetQuery(GROUP_ORDER, options.cursor, options.limit);
  // What a moderator removed or hid, and what a suspended account wrote, is quoted to nobody (issue 38, item
  // 7): the notification stays, without the words or the picture. The recipient's own hidden work is theirs.
  const shownTo = (alias: 'p' | 'c', author: 'pu' | 'cu') =>
    sql`(${sql.raw(alias)}.moderation_state is null
         or (${sql.raw(alias)}.moderation_state = 'hidden' and ${sql.raw(alias)}.author_id = ${userId}::uuid))
        and (${sql.raw(author)}.id = ${userId}::uuid
             or not (${sql.raw(author)}.suspended_until is not null and ${sql.raw(author)}.suspended_until > now()))`;
  const postShown = shownTo('p', 'pu');
  const commentShown = shownTo('c', 'cu');
  const rows = await queryRows<GroupRow>(
    db,
    sql`with groups as (
          select ${GROUP_KEY} as key, min(n.kind) as kind, max(n.created_at) as latest,
                 (array_agg(n.id order by n.created_at desc, n.id desc))[1] as last_id,
                 count(*)::int as actor_count, bool_and(n.read_at is not null) as read,
                 (array_agg(n.actor_id order by n.created_at desc))[1:${NOTIFICATION_ACTOR_CAP}] as actor_ids,
                 (array_agg(n.remote_actor_id order by n.created_at desc))[1:${NOTIFICATION_ACTOR_CAP}] as remote_ids,
                 min(n.post_id::text)::uuid as post_id, min(n.comment_id::text)::uuid as comment_id,
                 min(n.report_id::text)::uuid as report_id, min(n.series_id::text)::uuid as series_id,
                 min(n.inquiry_id::text)::uuid as inquiry_id,
                 min(n.collection_id::text)::uuid as collection_id
          from notifications n
          where n.recipient_id = ${userId}::uuid and ${notBlockedWith(userId, sql`n.actor_id`)}
          group by 1
        )
        select g.key, g.kind, g.latest, ${isoDate('g.latest')} as created_at, g.actor_count, g.read, g.last_id,
               coalesce((
                 select json_agg(${personJson('u', 'ra')} order by a.ord)
                 from unnest(g.actor_ids, g.remote_ids) with ordinality a(id, remote_id, ord)
                 left join users u on u.id = a.id
                 left join remote_actors ra on ra.id = a.remote_id
                 where u.id is not null or ra.id is not null
               ), '[]'::json) as actors,
               p.id as post_id, case when ${postShown} then left(p.content, 140) end as post_content,
               case when ${postShown} then ${POST_PIC} end as post_pic,
               c.id as comment_id, case when ${commentShown} then left(c.content, 140) end as comment_content,
               r.id as report_id, r.target_type as report_target_type, r.reason as report_reason,
               r.outcome as report_outcome, ${SERIES_REF} as series, ${INQUIRY_REF} as inquiry,
               ${COLLECTION_REF} as collection
        from groups g
        left join posts p on p.id = g.post_id
        left join comments c on c.id = g.comment_id
        left join users pu on pu.id = p.author_id
        left join users cu on cu.id = c.author_id
        left join reports r on r.id = g.report_id
        left join series s on s.id = g.series_id
        left join users su on su.id = s.owner_id
        left join collections col on col.id = g.collection_id
        left join users colu on colu.id = col.owner_id
        left join inquiries iq on iq.id = g.inquiry_id
        where ${after}
        order by ${orderBy}
        ${limit}`,
  );
  return keysetPage(rows, options.limit, GROUP_ORDER.shape, (row) => [row.latest, row.last_id]);
}

/** Marks one group (by its key) or all of the user's unread notifications read; answers the ids changed. */
export async function updateRead(db: Db, userId: string, key: string | undefined): Promise<string[]> {
  const changed = await queryRows<{ id: string }>(
    db,
    sql`update notifications n set read_at = now()
        where n.recipient_id = ${userId}::uuid and n.read_at is null
          and ${key === undefined ? sql`true` : sql`${GROUP_KEY} = ${key}`}
        returning n.id`,
  );
  return changed.map((row) => row.id);
}

/**
 * Notifications of `userId` with their actor: one by id, or those after a place (created_at, id) in
 * their order, oldest first, capped at what a live stream replays.
 */
export async function selectNotificationsWithActor(
  db: Db,
  userId: string,
  where: { id: string } | { after: CursorValue[] },
): Promise<NotificationRow[]> {
  return queryRows<NotificationRow>(
    db,
    sql`select n.id, n.kind, n.post_id, n.comment_id, n.created_at, ${personJson('u', 'ra')} as actor,
               ${SERIES_REF} as series, ${INQUIRY_REF} as inquiry, ${COLLECTION_REF} as collection
        from notifications n
        left join users u on u.id = n.actor_id
        left join remote_actors ra on ra.id = n.remote_actor_id
        left join series s on s.id = n.series_id
        left join users su on su.id = s.owner_id
        left join collections col on col.id = n.collection_id
        left join users colu on colu.id = col.owner_id
        left join inquiries iq on iq.id = n.inquiry_id
        where n.recipient_id = ${userId}::uuid and (u.id is not null or ra.id is not null) and ${
          'after' in where
            ? sql`(n.created_at, n.id) > (${where.after[0]}::timestamptz, ${where.after[1]}::uuid)`
            : sql`n.id = ${where.id}::uuid`
        }
        order by n.created_at, n.id
        limit ${LIVE.replayCap}`,
  );
}

/** The place of the user's newest notification in their order, if they have any. */
export async function selectNewestNotification(
  db: Db,
  userId: string,
): Promise<{ created_at: Date | string; id: string } | undefined> {
  const [newest] = await queryRows<{ created_at: Date | string; id: string }>(
    db,
    sql`select created_at, id from notifications where recipient_id = ${userId}::uuid
        order by created_at desc limit 1`,
  );
  return newest;
}

/**
 * Deletes one of the user's notifications (by id) or all of them (the Mastodon client API's dismiss and clear,
 * issue 45); answers whether any of those deleted was unread.
 */
export async function deleteNotifications(
  db: Db,
  userId: string,
  id: string | undefined,
): Promise<{ unread: boolean; deleted: number }> {
  const rows = await queryRows<{ unread: boolean }>(
    db,
    sql`delete from notifications n
        where n.recipient_id = ${userId}::uuid and ${id === undefined ? sql`true` : sql`n.id = ${id}::uuid`}
        returning n.read_at is null as unread`,
  );
  return { unread: rows.some((row) => row.unread), deleted: rows.length };
}

/**
 * Marks read the user's notifications up to and including one of theirs (by id), in their order: where an app's
 * notifications marker says they stopped reading (the Mastodon client API, issue 45). Answers the ids changed;
 * none when the id is not one of theirs.
 */
export async function updateReadUpTo(db: Db, userId: string, notificationId: string): Promise<string[]> {
  const changed = await queryRows<{ id: string }>(
    db,
    sql`update notifications n set read_at = now()
        from (select created_at, id from notifications
              where id = ${notificationId}::uuid and recipient_id = ${userId}::uuid) upto
        where n.recipient_id = ${userId}::uuid and n.read_at is null
          and (n.created_at, n.id) <= (upto.created_at, upto.id)
        returning n.id`,
  );
  return changed.map((row) => row.id);
}
