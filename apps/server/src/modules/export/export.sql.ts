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
    role: string;
    suspended_until: string | null;
    suspension_reason: string | null;
    created_at: string;
    updated_at: string;
  }>(
    db,
    sql`select id, username, first_name, last_name, email, bio, link, photo_media_id, photo_url,
          (select original_file from media where id = photo_media_id) as photo_file, follower_count, following_count, post_count, bookmark_count, works_signed_in_only,
          ai_training_opt_out, sensitive_media, hide_ai_generated, role, suspended_until, suspension_reason,
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
            p.created_at, p.updated_at
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

/** Every picture the account uploaded (in posts, its photo, not yet posted), newest first (media_owner_idx). */
export const picturePages = (db: Db, userId: string) =>
  pagesOf<PictureRow>(
    db,
    keyset(['m.created_at', 'm.id'], ['date', 'uuid'], 'desc'),
    ({ after, orderBy, limit }) =>
      sql`select ${PICTURE_COLUMNS} from media m left join post_media pm on pm.media_id = m.id
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
