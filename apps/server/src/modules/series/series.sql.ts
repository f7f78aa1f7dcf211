import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { keysetPage, keysetQuery, type Keyset } from '../../lib/keyset.js';
import { literalLimit } from '../../lib/sql-limit.js';
import { isoDate } from '../../lib/sql-json.js';
import { sparseOrder } from '../../lib/sparse-order.js';
import { notBlockedWith } from '../safety/index.js';

/**
 * Every statement of the series module (issue 41). It writes `series`, `series_works` and `series_follows` only;
 * the counts on `series` are the database's triggers' (migration 0040), and a new work's notifications are
 * events/notification-rules.ts's.
 */

/**
 * The works' order (series_works.position): a sparse key, one row written per move (the shared statements of
 * lib/sparse-order.ts, which collections use too).
 */
export const seriesOrder = sparseOrder({ table: 'series_works', group: 'series_id', item: 'post_id' });

/**
 * Whether the owner's series are there for the viewer (alias `u`, the owner): never a suspended account's (but to
 * itself), never between a blocked pair, and signed out never those of an artist who shows their works to
 * signed-in people only. A remote person (issue 39) owns none.
 */
const ownerShownTo = (viewerId: string | null): SQL =>
  viewerId === null
    ? sql`(u.suspended_until is null or u.suspended_until <= now()) and not u.works_signed_in_only and u.remote_actor_id is null`
    : sql`(u.id = ${viewerId}::uuid or u.suspended_until is null or u.suspended_until <= now())
          and u.remote_actor_id is null and ${notBlockedWith(viewerId, sql`u.id`)}`;

/**
 * A work of the series as the viewer may see it (alias `p`): moderation hides it from all but its author, removes
 * it for everyone. The rest of what decides whether a post is there (its author's state, blocks) is the owner's,
 * checked once per series by ownerShownTo; the posts module's reader checks everything again when it presents them.
 */
const workShownTo = (viewerId: string | null): SQL =>
  viewerId === null
    ? sql`p.moderation_state is null`
    : sql`(p.moderation_state is null or (p.moderation_state = 'hidden' and p.author_id = ${viewerId}::uuid))`;

export interface SeriesRow {
  id: string;
  slug: string;
  title: string;
  description: string;
  cover_post_id: string | null;
  work_count: number;
  follower_count: number;
  created_at: string;
  updated_at: string;
  /** For the keyset: created_at as the database holds it. */
  created_key: Date | string;
  owner_id: string;
  owner_username: string;
  owner_first_name: string;
  owner_last_name: string;
  owner_photo_url: string | null;
  viewer_follows: boolean;
  /** The works whose first picture may be the cover, the best first: the chosen one, then the first few. */
  cover_candidates: string[];
}

const seriesColumns = (viewerId: string | null): SQL => sql`
  s.id, s.slug, s.title, s.description, s.cover_post_id, s.work_count, s.follower_count,
  ${isoDate('s.created_at')} as created_at, ${isoDate('s.updated_at')} as updated_at, s.created_at as created_key,
  u.id as owner_id, u.username as owner_username, u.first_name as owner_first_name, u.last_name as owner_last_name,
  u.photo_url as owner_photo_url,
  ${viewerId === null ? sql`false` : sql`exists (select from series_follows sf where sf.series_id = s.id and sf.user_id = ${viewerId}::uuid)`} as viewer_follows,
  array(
    select c.post_id::text from (
      (select s.cover_post_id as post_id, 0 as rank where s.cover_post_id is not null)
      union all
      (select sw.post_id, 1 from series_works sw join posts p on p.id = sw.post_id
       where sw.series_id = s.id and ${workShownTo(viewerId)} and p.content_warning is null
       order by sw.position limit 3)
    ) c order by c.rank
  ) as cover_candidates`;

/** One series by id, if it is there for the viewer. */
export async function selectSeriesById(db: Db, id: string, viewerId: string | null): Promise<SeriesRow | undefined> {
  const [row] = await queryRows<SeriesRow>(
    db,
    sql`select ${seriesColumns(viewerId)} from series s join users u on u.id = s.owner_id
        where s.id = ${id}::uuid and ${ownerShownTo(viewerId)}`,
  );
  return row;
}

/** One series by its owner's username (any letter case) and slug, if it is there for the viewer. */
export async function selectSeriesBySlug(
  db: Db,
  username: string,
  slug: string,
  viewerId: string | null,
): Promise<SeriesRow | undefined> {
  const [row] = await queryRows<SeriesRow>(
    db,
    sql`select ${seriesColumns(viewerId)} from series s join users u on u.id = s.owner_id
        where lower(u.username) = lower(${username}) and s.slug = ${slug} and ${ownerShownTo(viewerId)}`,
  );
  return row;
}

const SERIES_ORDER: Keyset = {
  columns: [sql`s.created_at`, sql`s.id`],
  shape: ['date', 'uuid'],
  direction: 'desc',
};

/**
 * The owner's state for a list of their series: undefined when there is no such user; `shown` false when their
 * series are not there for the viewer (then the list is empty or a 404, the service's choice).
 */
export async function selectOwner(
  db: Db,
  username: string,
  viewerId: string | null,
): Promise<{ id: string; shown: boolean; blocked: boolean } | undefined> {
  const [row] = await queryRows<{ id: string; shown: boolean; blocked: boolean }>(
    db,
    sql`select u.id, ${ownerShownTo(viewerId)} as shown,
               ${viewerId === null ? sql`false` : sql`not ${notBlockedWith(viewerId, sql`u.id`)}`} as blocked
        from users u where lower(u.username) = lower(${username})`,
  );
  return row;
}

/** A keyset page of an owner's series, newest first. */
export async function selectSeriesPage(
  db: Db,
  ownerId: string,
  viewerId: string | null,
  options: { cursor?: string | undefined; limit: number },
): Promise<{ page: SeriesRow[]; nextCursor: string | null }> {
  const { after, orderBy, limit } = keysetQuery(SERIES_ORDER, options.cursor, options.limit);
  const rows = await queryRows<SeriesRow>(
    db,
    sql`select ${seriesColumns(viewerId)} from series s join users u on u.id = s.owner_id
        where s.owner_id = ${ownerId}::uuid and ${after}
        order by ${orderBy} ${limit}`,
  );
  return keysetPage(rows, options.limit, SERIES_ORDER.shape, (row) => [row.created_key, row.id]);
}

/** Makes one artist's series writes take turns (creating, renaming: the 100 and the slugs are counted under it). */
export async function lockOwnerSeries(tx: Db, ownerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`series:${ownerId}`}, 0))`);
}

export async function countOwnerSeries(db: Db, ownerId: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from series where owner_id = ${ownerId}::uuid`,
  );
  return row?.count ?? 0;
}

/** The owner's slugs that are `base` or `base-N` (but the series `except`, being renamed). */
export async function selectSlugsLike(db: Db, ownerId: string, base: string, except?: string): Promise<string[]> {
  const rows = await queryRows<{ slug: string }>(
    db,
    sql`select slug from series
        where owner_id = ${ownerId}::uuid and (slug = ${base} or (left(slug, ${base.length + 1}) = ${`${base}-`}
          and substr(slug, ${base.length + 2}) ~ '^[0-9]+$'))
          ${except ? sql`and id <> ${except}::uuid` : sql``}`,
  );
  return rows.map((row) => row.slug);
}

export async function insertSeries(
  tx: Db,
  values: { ownerId: string; slug: string; title: string; description: string },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into series (owner_id, slug, title, description)
        values (${values.ownerId}::uuid, ${values.slug}, ${values.title}, ${values.description}) returning id`,
  );
  return row!.id;
}

/** The series row a write acts on, locked for the rest of the transaction: its works' writes take turns. */
export async function lockSeries(
  tx: Db,
  id: string,
): Promise<{ id: string; owner_id: string; slug: string; work_count: number } | undefined> {
  const [row] = await queryRows<{ id: string; owner_id: string; slug: string; work_count: number }>(
    tx,
    sql`select id, owner_id, slug, work_count from series where id = ${id}::uuid for update`,
  );
  return row;
}

export async function updateSeriesRow(
  tx: Db,
  id: string,
  changes: { slug?: string; title?: string; description?: string; coverPostId?: string | null },
): Promise<void> {
  const sets: SQL[] = [sql`updated_at = now()`];
  if (changes.slug !== undefined) sets.push(sql`slug = ${changes.slug}`);
  if (changes.title !== undefined) sets.push(sql`title = ${changes.title}`);
  if (changes.description !== undefined) sets.push(sql`description = ${changes.description}`);
  if (changes.coverPostId !== undefined) sets.push(sql`cover_post_id = ${changes.coverPostId}::uuid`);
  await tx.execute(sql`update series set ${sql.join(sets, sql`, `)} where id = ${id}::uuid`);
}

/** A change to the works: the series' updated_at says when (the feed's and the page's freshness). */
export async function touchSeries(tx: Db, id: string): Promise<void> {
  await tx.execute(sql`update series set updated_at = now() where id = ${id}::uuid`);
}

export async function deleteSeriesRow(db: Db, id: string): Promise<void> {
  await db.execute(sql`delete from series where id = ${id}::uuid`);
}

/** Who wrote the post and whether it came from another server; undefined when there is no such post. */
export async function selectPostOrigin(
  db: Db,
  postId: string,
): Promise<{ author_id: string; remote: boolean } | undefined> {
  const [row] = await queryRows<{ author_id: string; remote: boolean }>(
    db,
    sql`select author_id, note_iri is not null as remote from posts where id = ${postId}::uuid`,
  );
  return row;
}

export async function insertWork(
  tx: Db,
  values: { seriesId: string; postId: string; position: number; chapter: string | null },
): Promise<void> {
  await tx.execute(
    sql`insert into series_works (series_id, post_id, position, chapter)
        values (${values.seriesId}::uuid, ${values.postId}::uuid, ${values.position}, ${values.chapter})`,
  );
}

export async function updateWorkPosition(tx: Db, seriesId: string, postId: string, position: number): Promise<void> {
  await tx.execute(
    sql`update series_works set position = ${position} where series_id = ${seriesId}::uuid and post_id = ${postId}::uuid`,
  );
}

export async function updateWorkChapter(
  tx: Db,
  seriesId: string,
  postId: string,
  chapter: string | null,
): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`update series_works set chapter = ${chapter}
        where series_id = ${seriesId}::uuid and post_id = ${postId}::uuid returning 1`,
  );
  return rows.length > 0;
}

/** Takes the work out of the series; false when it was not in it. The chosen cover goes with it. */
export async function deleteWork(tx: Db, seriesId: string, postId: string): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`delete from series_works where series_id = ${seriesId}::uuid and post_id = ${postId}::uuid returning 1`,
  );
  if (rows.length === 0) return false;
  await tx.execute(
    sql`update series set cover_post_id = null where id = ${seriesId}::uuid and cover_post_id = ${postId}::uuid`,
  );
  return true;
}

export interface WorkRow {
  post_id: string;
  position: number;
  chapter: string | null;
  added_at: string;
}

/** Up to `count` works of the series past the position `after`, in order, that the viewer may see. */
export function selectWorkRows(
  db: Db,
  seriesId: string,
  viewerId: string | null,
  after: number | undefined,
  count: number,
): Promise<WorkRow[]> {
  return queryRows<WorkRow>(
    db,
    sql`select sw.post_id, sw.position, sw.chapter, ${isoDate('sw.added_at')} as added_at
        from series_works sw join posts p on p.id = sw.post_id
        where sw.series_id = ${seriesId}::uuid ${after === undefined ? sql`` : sql`and sw.position > ${after}`}
          and ${workShownTo(viewerId)}
        order by sw.position ${literalLimit(count)}`,
  );
}

/** The newest additions to the series the viewer may see (its Atom feed). */
export async function selectNewestWorkIds(
  db: Db,
  seriesId: string,
  viewerId: string | null,
  count: number,
): Promise<string[]> {
  const rows = await queryRows<{ post_id: string }>(
    db,
    sql`select sw.post_id from series_works sw join posts p on p.id = sw.post_id
        where sw.series_id = ${seriesId}::uuid and ${workShownTo(viewerId)}
        order by sw.added_at desc, sw.position desc ${literalLimit(count)}`,
  );
  return rows.map((row) => row.post_id);
}

export interface PostSeriesRow {
  id: string;
  slug: string;
  title: string;
  owner_username: string;
  chapter: string | null;
  previous: string | null;
  next: string | null;
}

/**
 * The series holding this work (their owner's; a work is only ever in its author's series), the oldest first,
 * each with the nearest work before and after it that the viewer may see.
 */
export function selectPostSeries(db: Db, postId: string, viewerId: string | null): Promise<PostSeriesRow[]> {
  return queryRows<PostSeriesRow>(
    db,
    sql`select s.id, s.slug, s.title, u.username as owner_username, sw.chapter,
               (select b.post_id from series_works b join posts p on p.id = b.post_id
                where b.series_id = s.id and b.position < sw.position and ${workShownTo(viewerId)}
                order by b.position desc limit 1) as previous,
               (select a.post_id from series_works a join posts p on p.id = a.post_id
                where a.series_id = s.id and a.position > sw.position and ${workShownTo(viewerId)}
                order by a.position limit 1) as next
        from series_works sw join series s on s.id = sw.series_id join users u on u.id = s.owner_id
        where sw.post_id = ${postId}::uuid and ${ownerShownTo(viewerId)}
        order by s.created_at, s.id`,
  );
}

/** Follows the series (no error when already following); answers whether a row was added. */
export async function insertFollow(db: Db, seriesId: string, userId: string): Promise<void> {
  await db.execute(
    sql`insert into series_follows (series_id, user_id) values (${seriesId}::uuid, ${userId}::uuid)
        on conflict do nothing`,
  );
}

export async function deleteFollow(db: Db, seriesId: string, userId: string): Promise<void> {
  await db.execute(sql`delete from series_follows where series_id = ${seriesId}::uuid and user_id = ${userId}::uuid`);
}
