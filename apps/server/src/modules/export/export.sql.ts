import { sql, type SQL } from 'drizzle-orm';
import { formatDate } from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';
import type { CursorPart } from '../../lib/cursor.js';
import { keysetPage, keysetQuery, type Keyset } from '../../lib/keyset.js';

/**
 * The SQL of an export: each list of the account read a page at a time (keyset, on the indexes the
 * app's own lists use), so an account with a million rows costs a page of memory, not a million.
 */

/** How many rows one read fetches. */
export const EXPORT_PAGE = 500;

/** A timestamp as the drivers return it (text), in the API's format; null stays null. */
export const date = (value: string | Date | null): string | null =>
  value === null ? null : formatDate(value instanceof Date ? value : new Date(value));

type Row = Record<string, unknown>;

/**
 * Every row of a list, in keyset order, read `EXPORT_PAGE` at a time. `select` builds the statement from
 * the parts keysetQuery gives; `key` reads a row's sort key. The next page is read only when the
 * consumer asks for it: an export whose download stops stops reading.
 */
export async function* pagesOf<R extends Row>(
  db: Db,
  keyset: Keyset,
  select: (parts: { after: SQL; orderBy: SQL; limit: SQL }) => SQL,
  key: (row: R) => unknown[],
): AsyncGenerator<R[]> {
  let cursor: string | undefined;
  do {
    const rows = await queryRows<R>(db, select(keysetQuery(keyset, cursor, EXPORT_PAGE)));
    const { page, nextCursor } = keysetPage(rows, EXPORT_PAGE, keyset.shape, key);
    if (page.length) yield page;
    cursor = nextCursor ?? undefined;
  } while (cursor);
}

const keyset = (columns: string[], shape: CursorPart[], direction: 'asc' | 'desc' = 'asc'): Keyset => ({
  columns: columns.map((column) => sql.raw(column)),
  shape,
  direction,
});

/** The account's own row: named columns only, so no secret added to the table later is ever exported. */
export async function selectProfile(db: Db, userId: string) {
  const [row] = await queryRows<{
    id: string;
    username: string;
    first_name: string;
    last_name: string;
    email: string;
    bio: string;
    link: string;
    photo_media_id: string | null;
    photo_url: string | null;
    photo_file: string | null;
    follower_count: number;
    following_count: number;
    post_count: number;
    bookmark_count: number;
    works_signed_in_only: boolean;
    ai_training_opt_out: boolean;
    sensitive_media: string;
    hide_ai_generated: boolean;
    allow_collecting: boolean;
    role: string;
    suspended_until: string | null;
    suspension_reason: string | null;
    created_at: string;
    updated_at: string;
  }>(
    db,
    sql`select id, username, first_name, last_name, email, bio, link, photo_media_id, photo_url,
          (select original_file from media where id = photo_media_id) as photo_file, follower_count, following_count, post_count, bookmark_count, works_signed_in_only,
          ai_training_opt_out, sensitive_media, hide_ai_generated, allow_collecting, role, suspended_until, suspension_reason,
          created_at, updated_at
        from users where id = ${userId}::uuid`,
  );
  return row;
}
export type ProfileRow = NonNullable<Awaited<ReturnType<typeof selectProfile>>>;

export interface PostRow extends Row {
  id: string;
  content: string;
  tags: string[];
  like_count: number;
  dislike_count: number;
  comment_count: number;
  moderation_state: string | null;
  moderation_reason: string | null;
  content_warning: string | null;
  comment_policy: string;
  licence: string;
  ai_generated: boolean;
  downloadable: boolean;
  created_at: string;
  updated_at: string;
  /** When an edit last changed it (issue 41, post history); null: never. */
  edited_at: string | null;
}

/** The account's posts, oldest first (posts_author_created_idx). */
export const postPages = (db: Db, userId: string) => {
  const order = keyset(['p.created_at', 'p.id'], ['date', 'uuid']);
  return pagesOf<PostRow>(
    db,
    order,
    ({ after, orderBy, limit }) =>
      sql`select p.id, p.content, p.tags, p.like_count + p.remote_like_count as like_count, p.dislike_count, p.comment_count, p.moderation_state,
            p.moderation_reason, p.content_warning, p.comment_policy, p.licence, p.ai_generated, p.downloadable,
            p.created_at, p.updated_at, p.edited_at
          from posts p where p.author_id = ${userId}::uuid and ${after} order by ${orderBy} ${limit}`,
    (row) => [row.created_at, row.id],
  );
};

export interface PictureRow extends Row {
  id: string;
  post_id: string | null;
  position: number | null;
  purpose: string;
  original_file: string;
  original_mime: string;
  original_bytes: number;
  original_name: string;
  width: number;
  height: number;
  alt: string;
  created_at: string;
  /** pictures.json only: a process picture of its post (issue 41). */
  process?: boolean;
}

const PICTURE_COLUMNS = sql`m.id, pm.post_id, pm.position, m.purpose, m.original_file, m.original_mime,
  m.original_bytes, m.original_name, m.width, m.height, m.alt, m.created_at`;

/** The pictures of a page of posts, each post's in its order. */
export const selectPicturesOf = (db: Db, postIds: string[]) =>
  queryRows<PictureRow>(
    db,
    sql`select ${PICTURE_COLUMNS} from post_media pm join media m on m.id = pm.media_id
        where pm.post_id = any(${`{${postIds.join(',')}}`}::uuid[]) order by pm.post_id, pm.position`,
  );

/** The process pictures of a page of posts (issue 41), each post's in its order. */
export const selectProcessPicturesOf = (db: Db, postIds: string[]) =>
  queryRows<PictureRow>(
    db,
    sql`select ${PICTURE_COLUMNS} from post_process_pictures pm join media m on m.id = pm.media_id
        where pm.post_id = any(${`{${postIds.join(',')}}`}::uuid[]) order by pm.post_id, pm.position`,
  );

/** A revision of a post (issue 41, post history), with the pictures it keeps. */
export interface RevisionRow extends Row {
  post_id: string;
  created_at: string;
  changed: string[];
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  earlier: { kind: 'picture' | 'process'; id: string; original_file: string; alt: string }[];
}

/** The history of a page of posts (issue 41): each post's revisions, newest first, with the pictures they keep. */
export const selectRevisionsOf = (db: Db, postIds: string[]) =>
  queryRows<RevisionRow>(
    db,
    sql`select r.post_id, r.created_at, r.changed, r.before, r.after,
          coalesce((select json_agg(json_build_object('kind', rm.kind, 'id', m.id, 'original_file', m.original_file,
                      'alt', rm.alt) order by rm.kind, rm.position)
                    from post_revision_media rm join media m on m.id = rm.media_id where rm.revision_id = r.id),
                   '[]'::json) as earlier
        from post_revisions r
        where r.post_id = any(${`{${postIds.join(',')}}`}::uuid[])
        order by r.post_id, r.created_at desc, r.id desc`,
  );

/**
 * Every picture the account uploaded (in posts, as a picture or a process picture, its photo, not yet posted),
 * newest first (media_owner_idx).
 */
export const picturePages = (db: Db, userId: string) =>
  pagesOf<PictureRow>(
    db,
    keyset(['m.created_at', 'm.id'], ['date', 'uuid'], 'desc'),
    ({ after, orderBy, limit }) =>
      sql`select ${PICTURE_COLUMNS}, coalesce(pm.process, false) as process
          from media m left join (
            select post_id, media_id, position, false as process from post_media
            union all select post_id, media_id, position, true from post_process_pictures
          ) pm on pm.media_id = m.id
          where m.owner_id = ${userId}::uuid and ${after} order by ${orderBy} ${limit}`,
    (row) => [row.created_at, row.id],
  );

export interface CommentRow extends Row {
  id: string;
  post_id: string;
  /** Null for a reply from another server (issue 39): then the remote_ columns. */
  author_id: string | null;
  author_username: string | null;
  remote_handle: string | null;
  remote_url: string | null;
  post_author_username: string;
  content: string;
  upvote_count: number;
  downvote_count: number;
  edited: boolean;
  moderation_state: string | null;
  moderation_reason: string | null;
  created_at: string;
  updated_at: string;
}

const COMMENT_COLUMNS = sql`c.id, c.post_id, c.author_id, a.username as author_username,
  ra.handle as remote_handle, coalesce(ra.profile_url, ra.iri) as remote_url, pa.username as post_author_username, c.content, c.upvote_count, c.downvote_count, c.edited,
  c.moderation_state, c.moderation_reason, c.created_at, c.updated_at`;
const COMMENT_JOINS = sql`left join users a on a.id = c.author_id left join remote_actors ra on ra.id = c.remote_actor_id
  join posts p on p.id = c.post_id join users pa on pa.id = p.author_id`;

/** The comments on one post, oldest first (comments_post_created_idx). */
export const commentPagesOfPost = (db: Db, postId: string) =>
  pagesOf<CommentRow>(
    db,
    keyset(['c.created_at', 'c.id'], ['date', 'uuid']),
    ({ after, orderBy, limit }) =>
      sql`select ${COMMENT_COLUMNS} from comments c ${COMMENT_JOINS}
          where c.post_id = ${postId}::uuid and ${after} order by ${orderBy} ${limit}`,
    (row) => [row.created_at, row.id],
  );

/** The comments on a page of posts, each post's oldest first: for pages whose posts have few comments. */
export const selectCommentsOf = (db: Db, postIds: string[]) =>
  queryRows<CommentRow>(
    db,
    sql`select ${COMMENT_COLUMNS} from comments c ${COMMENT_JOINS}
        where c.post_id = any(${`{${postIds.join(',')}}`}::uuid[]) order by c.post_id, c.created_at, c.id`,
  );

/** The comments the account wrote, anywhere, oldest first. */
export const commentPagesByAuthor = (db: Db, userId: string) =>
  pagesOf<CommentRow>(
    db,
    keyset(['c.created_at', 'c.id'], ['date', 'uuid']),
    ({ after, orderBy, limit }) =>
      sql`select ${COMMENT_COLUMNS} from comments c ${COMMENT_JOINS}
          where c.author_id = ${userId}::uuid and ${after} order by ${orderBy} ${limit}`,
    (row) => [row.created_at, row.id],
  );

/**
 * The account's rows of a table that names another user or a post (follows, blocks, likes …) with what
 * the reader needs to recognise it, newest first, on the table's own (owner, created_at desc …) index.
 */
export interface ListRow extends Row {
  other_id: string;
  username: string | null;
  kind: string | null;
  created_at: string;
  /** A remote person (a shadow account, issue 39): their handle and actor id; null for an account here. */
  remote_handle: string | null;
  remote_iri: string | null;
  /** Following only: their server has not accepted the follow yet. */
  pending: boolean | null;
}

const LISTS = {
  following: { table: 'follows', own: 'follower_id', other: 'followee_id', user: 'x.followee_id' },
  followers: { table: 'follows', own: 'followee_id', other: 'follower_id', user: 'x.follower_id' },
  blocks: { table: 'blocks', own: 'blocker_id', other: 'blocked_id', user: 'x.blocked_id' },
  mutes: { table: 'mutes', own: 'muter_id', other: 'muted_id', user: 'x.muted_id' },
  // A post's author: who made the work you liked or saved.
  bookmarks: {
    table: 'bookmarks',
    own: 'user_id',
    other: 'post_id',
    user: '(select author_id from posts where id = x.post_id)',
  },
  likes: {
    table: 'post_reactions',
    own: 'user_id',
    other: 'post_id',
    user: '(select author_id from posts where id = x.post_id)',
  },
} as const;

export const listPages = (db: Db, userId: string, list: keyof typeof LISTS) => {
  const { table, own, other, user } = LISTS[list];
  const likes = list === 'likes';
  return pagesOf<ListRow>(
    db,
    keyset(
      likes ? ['x.kind', 'x.created_at', 'x.post_id'] : ['x.created_at', `x.${other}`],
      likes ? ['text', 'date', 'uuid'] : ['date', 'uuid'],
      'desc',
    ),
    ({ after, orderBy, limit }) =>
      sql`select x.${sql.raw(other)} as other_id, u.username, ${sql.raw(likes ? 'x.kind' : 'null')} as kind, x.created_at,
            ra.handle as remote_handle, ra.iri as remote_iri, ${sql.raw(table === 'follows' ? 'x.pending' : 'null')} as pending
          from ${sql.raw(table)} x left join users u on u.id = ${sql.raw(user)}
            left join remote_actors ra on ra.id = u.remote_actor_id
          where x.${sql.raw(own)} = ${userId}::uuid and ${after} order by ${orderBy} ${limit}`,
    (row) => (likes ? [row.kind, row.created_at, row.other_id] : [row.created_at, row.other_id]),
  );
};

/** Followed tags, newest first (tag_follows_user_created_idx). */
export const tagPages = (db: Db, userId: string) =>
  pagesOf<{ tag: string; created_at: string }>(
    db,
    keyset(['t.created_at', 't.tag'], ['date', 'text'], 'desc'),
    ({ after, orderBy, limit }) =>
      sql`select t.tag, t.created_at from tag_follows t where t.user_id = ${userId}::uuid and ${after}
          order by ${orderBy} ${limit}`,
    (row) => [row.created_at, row.tag],
  );

/** Pinned works (at most 6) and muted words (at most 200): small enough to read at once. */
export const selectPins = (db: Db, userId: string) =>
  queryRows<{ post_id: string; position: number; created_at: string }>(
    db,
    sql`select post_id, position, created_at from post_pins where user_id = ${userId}::uuid order by position`,
  );

export const selectMutedWords = (db: Db, userId: string) =>
  queryRows<{ word: string; created_at: string }>(
    db,
    sql`select word, created_at from muted_words where user_id = ${userId}::uuid order by created_at desc, word`,
  );

export interface NotificationRow extends Row {
  id: string;
  kind: string;
  /** The account that did it; null for someone on another server (issue 39): then the remote_ columns. */
  actor_id: string | null;
  actor_username: string | null;
  remote_handle: string | null;
  remote_url: string | null;
  post_id: string | null;
  comment_id: string | null;
  report_id: string | null;
  created_at: string;
  read_at: string | null;
}

/** The account's notifications, newest first (notifications_recipient_created_idx). */
export const notificationPages = (db: Db, userId: string) =>
  pagesOf<NotificationRow>(
    db,
    keyset(['n.created_at', 'n.id'], ['date', 'uuid'], 'desc'),
    ({ after, orderBy, limit }) =>
      sql`select n.id, n.kind, n.actor_id, a.username as actor_username, ra.handle as remote_handle,
            coalesce(ra.profile_url, ra.iri) as remote_url, n.post_id, n.comment_id, n.report_id, n.created_at, n.read_at
          from notifications n left join users a on a.id = n.actor_id
          left join remote_actors ra on ra.id = n.remote_actor_id
          where n.recipient_id = ${userId}::uuid and ${after} order by ${orderBy} ${limit}`,
    (row) => [row.created_at, row.id],
  );

export interface SeriesExportRow extends Row {
  id: string;
  slug: string;
  title: string;
  description: string;
  cover_post_id: string | null;
  created_at: string;
  updated_at: string;
  works: { post_id: string; chapter: string | null; added_at: string }[];
}

/**
 * The account's series (issue 41), oldest first, one at a time with all its works in order: at most 100 series, each
 * of at most 10,000 works, so one series' works are one read.
 */
export async function* seriesPages(db: Db, userId: string): AsyncGenerator<SeriesExportRow[]> {
  const ids = await queryRows<{ id: string }>(
    db,
    sql`select id from series where owner_id = ${userId}::uuid order by created_at, id`,
  );
  for (const { id } of ids) {
    const rows = await queryRows<SeriesExportRow>(
      db,
      sql`select s.id, s.slug, s.title, s.description, s.cover_post_id, s.created_at, s.updated_at,
                 coalesce((select json_agg(json_build_object('post_id', sw.post_id, 'chapter', sw.chapter,
                                                             'added_at', sw.added_at) order by sw.position)
                           from series_works sw where sw.series_id = s.id), '[]'::json) as works
          from series s where s.id = ${id}::uuid`,
    );
    // Deleted while the export was read: left out.
    if (rows.length > 0) yield rows;
  }
}

export interface CollectionExportRow extends Row {
  id: string;
  slug: string;
  title: string;
  description: string;
  is_public: boolean;
  created_at: string;
  updated_at: string;
  works: { post_id: string; note: string; added_at: string }[];
}

/**
 * The account's collections (issue 41), oldest first, one at a time with all its works in order: at most 200
 * collections, each of at most 10,000 works, so one collection's works are one read. Saved is bookmarks.json.
 */
export async function* collectionPages(db: Db, userId: string): AsyncGenerator<CollectionExportRow[]> {
  const ids = await queryRows<{ id: string }>(
    db,
    sql`select id from collections where owner_id = ${userId}::uuid order by created_at, id`,
  );
  for (const { id } of ids) {
    const rows = await queryRows<CollectionExportRow>(
      db,
      sql`select c.id, c.slug, c.title, c.description, c.is_public, c.created_at, c.updated_at,
                 coalesce((select json_agg(json_build_object('post_id', cw.post_id, 'note', cw.note,
                                                             'added_at', cw.added_at) order by cw.position)
                           from collection_works cw where cw.collection_id = c.id), '[]'::json) as works
          from collections c where c.id = ${id}::uuid`,
    );
    // Deleted while the export was read: left out.
    if (rows.length > 0) yield rows;
  }
}

export interface DraftExportRow extends Row {
  id: string;
  content: string;
  rights: Record<string, unknown>;
  series_id: string | null;
  chapter: string | null;
  scheduled_at: string | null;
  time_zone: string | null;
  publish_error: string | null;
  created_at: string;
  updated_at: string;
  pictures: { id: string; original_file: string; alt: string }[];
  /** Its process pictures in order (migration 0050). */
  process_pictures: { id: string; original_file: string; alt: string }[];
}

/** The account's drafts and scheduled posts (issue 41), oldest first, each with its pictures in order. */
export const draftPages = (db: Db, userId: string) =>
  pagesOf<DraftExportRow>(
    db,
    keyset(['d.created_at', 'd.id'], ['date', 'uuid']),
    ({ after, orderBy, limit }) =>
      sql`select d.id, d.content, d.rights, d.series_id, d.chapter, d.scheduled_at, d.time_zone, d.publish_error,
            d.created_at, d.updated_at,
            coalesce((select json_agg(json_build_object('id', m.id, 'original_file', m.original_file, 'alt', m.alt)
                                      order by dm.position)
                      from draft_media dm join media m on m.id = dm.media_id
                      where dm.draft_id = d.id and not dm.process), '[]'::json)
              as pictures,
            coalesce((select json_agg(json_build_object('id', m.id, 'original_file', m.original_file, 'alt', m.alt)
                                      order by dm.position)
                      from draft_media dm join media m on m.id = dm.media_id
                      where dm.draft_id = d.id and dm.process), '[]'::json)
              as process_pictures
          from drafts d where d.author_id = ${userId}::uuid and ${after} order by ${orderBy} ${limit}`,
    (row) => [row.created_at, row.id],
  );

/** The series the account follows (issue 41), newest follow first. */
export const followedSeriesPages = (db: Db, userId: string) =>
  pagesOf<{ series_id: string; title: string; slug: string; owner_username: string; created_at: string }>(
    db,
    keyset(['f.created_at', 'f.series_id'], ['date', 'uuid'], 'desc'),
    ({ after, orderBy, limit }) =>
      sql`select f.series_id, f.created_at, s.title, s.slug, u.username as owner_username
          from series_follows f join series s on s.id = f.series_id join users u on u.id = s.owner_id
          where f.user_id = ${userId}::uuid and ${after} order by ${orderBy} ${limit}`,
    (row) => [row.created_at, row.series_id],
  );

/**
 * The account's insights (issue 42): its profile's and its works' view counts per day, source and referring site,
 * oldest day first (the profile's rows first each day), a page at a time. Counts only: the rows hold no viewer.
 */
export const insightPages = (db: Db, userId: string) =>
  pagesOf<{ day: string; subject: string; source: string; host: string; views: number }>(
    db,
    keyset(['x.day', 'x.subject', 'x.source', 'x.host'], ['text', 'text', 'text', 'text']),
    ({ after, orderBy, limit }) =>
      sql`select * from (
            select to_char(day, 'YYYY-MM-DD') as day, '' as subject, source, host, views
            from profile_view_days where user_id = ${userId}::uuid
            union all
            select to_char(v.day, 'YYYY-MM-DD'), v.post_id::text, v.source, v.host, v.views
            from post_view_days v join posts p on p.id = v.post_id where p.author_id = ${userId}::uuid
          ) x where ${after} order by ${orderBy} ${limit}`,
    (row) => [row.day, row.subject, row.source, row.host],
  );

/** The account's commission panel (issue 42), with its example works in order; undefined when never filled in. */
export async function selectCommissionPanel(db: Db, userId: string) {
  const [row] = await queryRows<{
    open: boolean;
    kinds: string[];
    kinds_note: string;
    slots_total: number | null;
    slots_taken: number;
    currency: string | null;
    price_min: number | null;
    price_max: number | null;
    turnaround_days: number | null;
    terms: string;
    terms_url: string | null;
    languages: string[];
    opened_at: string | null;
    updated_at: string;
    examples: string[];
  }>(
    db,
    sql`select cp.open, cp.kinds, cp.kinds_note, cp.slots_total, cp.slots_taken, cp.currency, cp.price_min,
               cp.price_max, cp.turnaround_days, cp.terms, cp.terms_url, cp.languages, cp.opened_at, cp.updated_at,
               array(select e.post_id::text from commission_examples e where e.user_id = cp.user_id
                     order by e.position) as examples
        from commission_profiles cp where cp.user_id = ${userId}::uuid`,
  );
  return row;
}

/** The artists the account asked to be told about when they open (issue 42), newest first (one read: few). */
export const selectCommissionWatching = (db: Db, userId: string) =>
  queryRows<{ artist_id: string; username: string; created_at: string; notified_at: string | null }>(
    db,
    sql`select w.artist_id, u.username, w.created_at, w.notified_at
        from commission_watchers w join users u on u.id = w.artist_id
        where w.watcher_id = ${userId}::uuid order by w.created_at desc, w.artist_id`,
  );

export interface InquiryExportRow extends Row {
  id: string;
  role: 'artist' | 'client';
  artist_username: string;
  client_username: string;
  body: string;
  budget_amount: number | null;
  budget_currency: string | null;
  deadline: string | null;
  state: string;
  decline_reason: string | null;
  created_at: string;
  updated_at: string;
  messages: { id: string; author: string; body: string; created_at: string }[];
  references: { id: string; width: number; height: number; bytes: number; created_at: string }[];
}

/** The account's part in an inquiry it has not deleted for itself (issue 42). */
const inquiryOfAccount = (userId: string) =>
  sql`((iq.artist_id = ${userId}::uuid and iq.artist_deleted_at is null)
    or (iq.client_id = ${userId}::uuid and iq.client_deleted_at is null))`;

/**
 * The inquiries the account sent or received (issue 42), oldest first, each with its messages (at most a few
 * hundred per thread: one read) and its reference pictures' names; those it deleted for itself are left out.
 */
export const inquiryPages = (db: Db, userId: string) =>
  pagesOf<InquiryExportRow>(
    db,
    keyset(['iq.created_at', 'iq.id'], ['date', 'uuid']),
    ({ after, orderBy, limit }) =>
      sql`select iq.id, case when iq.artist_id = ${userId}::uuid then 'artist' else 'client' end as role,
            a.username as artist_username, c.username as client_username, iq.body, iq.budget_amount,
            iq.budget_currency, to_char(iq.deadline, 'YYYY-MM-DD') as deadline, iq.state, iq.decline_reason,
            iq.created_at, iq.updated_at,
            coalesce((select json_agg(json_build_object('id', m.id, 'author', mu.username, 'body', m.body,
                                                        'created_at', m.created_at) order by m.created_at, m.id)
                      from inquiry_messages m join users mu on mu.id = m.author_id
                      where m.inquiry_id = iq.id), '[]'::json) as messages,
            coalesce((select json_agg(json_build_object('id', r.id, 'width', r.width, 'height', r.height,
                                                        'bytes', r.bytes, 'created_at', r.created_at)
                                      order by r.created_at, r.id)
                      from inquiry_references r where r.inquiry_id = iq.id), '[]'::json) as references
          from inquiries iq join users a on a.id = iq.artist_id join users c on c.id = iq.client_id
          where ${inquiryOfAccount(userId)} and ${after} order by ${orderBy} ${limit}`,
    (row) => [row.created_at, row.id],
  );

/** The reference pictures of the account's inquiries (issue 42), without their bytes, oldest first. */
export const inquiryReferencePages = (db: Db, userId: string) =>
  pagesOf<{ id: string; inquiry_id: string; created_at: string }>(
    db,
    keyset(['r.created_at', 'r.id'], ['date', 'uuid']),
    ({ after, orderBy, limit }) =>
      sql`select r.id, r.inquiry_id, r.created_at
          from inquiry_references r join inquiries iq on iq.id = r.inquiry_id
          where ${inquiryOfAccount(userId)} and ${after} order by ${orderBy} ${limit}`,
    (row) => [row.created_at, row.id],
  );

/** One reference picture's bytes (issue 42), read one at a time while the zip is written. */
export async function selectInquiryReferenceData(db: Db, id: string): Promise<Uint8Array | undefined> {
  const [row] = await queryRows<{ data: Uint8Array }>(
    db,
    sql`select data from inquiry_references where id = ${id}::uuid`,
  );
  return row?.data;
}

/** Where an inquiry's reference picture goes in the zip. */
export const inquiryReferenceFile = (inquiryId: string, referenceId: string) =>
  `inquiries/${inquiryId}/${referenceId}.jpg`;
