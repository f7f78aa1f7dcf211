import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { keysetPage, keysetQuery, type Keyset } from '../../lib/keyset.js';
import { sparseOrder } from '../../lib/sparse-order.js';
import { isoDate } from '../../lib/sql-json.js';
import { literalLimit } from '../../lib/sql-limit.js';
import { notBlockedWith } from '../safety/index.js';

/**
 * Every statement of the collections module (issue 41). It writes `collections` and `collection_works` only; the
 * counts on `collections` are the database's triggers' (migration 0042), the artists' notifications are
 * events/notification-rules.ts's, and Saved is the posts module's `bookmarks` (read through its reader).
 */

/** The works' order (collection_works.position): a sparse key, one row written per move (lib/sparse-order.ts). */
export const collectionOrder = sparseOrder({ table: 'collection_works', group: 'collection_id', item: 'post_id' });

/**
 * Whether the owner's collections are there for the viewer (alias `u`, the owner): never a suspended account's (but
 * to itself), never between a blocked pair (each hides the other's), and signed out never those of a person who
 * shows their works to signed-in people only. A remote person (issue 39) owns none.
 */
const ownerShownTo = (viewerId: string | null): SQL =>
  viewerId === null
    ? sql`(u.suspended_until is null or u.suspended_until <= now()) and not u.works_signed_in_only and u.remote_actor_id is null`
    : sql`(u.id = ${viewerId}::uuid or u.suspended_until is null or u.suspended_until <= now())
          and u.remote_actor_id is null and ${notBlockedWith(viewerId, sql`u.id`)}`;

/** A collection (alias `c`, its owner `u`) the viewer may read: a public one, or their own. */
const collectionShownTo = (viewerId: string | null): SQL =>
  sql`${ownerShownTo(viewerId)} and ${viewerId === null ? sql`c.is_public` : sql`(c.is_public or c.owner_id = ${viewerId}::uuid)`}`;

/**
 * A work of the collection as the viewer may see it (alias `p`): moderation hides it from all but its artist, removes
 * it for everyone. The rest (its artist's state, blocks, signed-in only) the posts module's reader checks when it
 * presents them.
 */
const workShownTo = (viewerId: string | null): SQL =>
  viewerId === null
    ? sql`p.moderation_state is null`
    : sql`(p.moderation_state is null or (p.moderation_state = 'hidden' and p.author_id = ${viewerId}::uuid))`;

export interface CollectionRow {
  id: string;
  slug: string;
  title: string;
  description: string;
  is_public: boolean;
  work_count: number;
  created_at: string;
  updated_at: string;
  /** For the keyset: created_at as the database holds it. */
  created_key: Date | string;
  owner_id: string;
  owner_username: string;
  owner_first_name: string;
  owner_last_name: string;
  owner_photo_url: string | null;
  /** The first few works, whose first picture may be the cover. */
  cover_candidates: string[];
}

const collectionColumns = (viewerId: string | null): SQL => sql`
  c.id, c.slug, c.title, c.description, c.is_public, c.work_count,
  ${isoDate('c.created_at')} as created_at, ${isoDate('c.updated_at')} as updated_at, c.created_at as created_key,
  u.id as owner_id, u.username as owner_username, u.first_name as owner_first_name, u.last_name as owner_last_name,
  u.photo_url as owner_photo_url,
  array(
    select cw.post_id::text from collection_works cw join posts p on p.id = cw.post_id
    where cw.collection_id = c.id and ${workShownTo(viewerId)} and p.content_warning is null
    order by cw.position limit 4
  ) as cover_candidates`;

/** One collection by id, if the viewer may read it. */
export async function selectCollectionById(
  db: Db,
  id: string,
  viewerId: string | null,
): Promise<CollectionRow | undefined> {
  const [row] = await queryRows<CollectionRow>(
    db,
    sql`select ${collectionColumns(viewerId)} from collections c join users u on u.id = c.owner_id
        where c.id = ${id}::uuid and ${collectionShownTo(viewerId)}`,
  );
  return row;
}

/** One collection by its owner's username (any letter case) and slug, if the viewer may read it. */
export async function selectCollectionBySlug(
  db: Db,
  username: string,
  slug: string,
  viewerId: string | null,
): Promise<CollectionRow | undefined> {
  const [row] = await queryRows<CollectionRow>(
    db,
    sql`select ${collectionColumns(viewerId)} from collections c join users u on u.id = c.owner_id
        where lower(u.username) = lower(${username}) and c.slug = ${slug} and ${collectionShownTo(viewerId)}`,
  );
  return row;
}

const COLLECTION_ORDER: Keyset = {
  columns: [sql`c.created_at`, sql`c.id`],
  shape: ['date', 'uuid'],
  direction: 'desc',
};

export interface OwnerRow {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  photo_url: string | null;
  created_at: string;
  /** Their collections are there for the viewer. */
  shown: boolean;
  blocked: boolean;
  /** Their Saved: the count of their bookmarks. */
  bookmark_count: number;
}

/** The owner of a list of collections and their state for the viewer; undefined when there is no such user. */
export async function selectOwner(db: Db, username: string, viewerId: string | null): Promise<OwnerRow | undefined> {
  const [row] = await queryRows<OwnerRow>(
    db,
    sql`select u.id, u.username, u.first_name, u.last_name, u.photo_url, ${isoDate('u.created_at')} as created_at,
               u.bookmark_count, ${ownerShownTo(viewerId)} as shown,
               ${viewerId === null ? sql`false` : sql`not ${notBlockedWith(viewerId, sql`u.id`)}`} as blocked
        from users u where lower(u.username) = lower(${username})`,
  );
  return row;
}

/** The user as the owner of their Saved (the viewer themselves). */
export async function selectOwnerById(db: Db, id: string): Promise<OwnerRow | undefined> {
  const [row] = await queryRows<OwnerRow>(
    db,
    sql`select u.id, u.username, u.first_name, u.last_name, u.photo_url, ${isoDate('u.created_at')} as created_at,
               u.bookmark_count, true as shown, false as blocked
        from users u where u.id = ${id}::uuid`,
  );
  return row;
}

/** A keyset page of an owner's collections the viewer may read, newest first. */
export async function selectCollectionPage(
  db: Db,
  ownerId: string,
  viewerId: string | null,
  options: { cursor?: string | undefined; limit: number },
): Promise<{ page: CollectionRow[]; nextCursor: string | null }> {
  const { after, orderBy, limit } = keysetQuery(COLLECTION_ORDER, options.cursor, options.limit);
  const rows = await queryRows<CollectionRow>(
    db,
    sql`select ${collectionColumns(viewerId)} from collections c join users u on u.id = c.owner_id
        where c.owner_id = ${ownerId}::uuid and ${collectionShownTo(viewerId)} and ${after}
        order by ${orderBy} ${limit}`,
  );
  return keysetPage(rows, options.limit, COLLECTION_ORDER.shape, (row) => [row.created_key, row.id]);
}

/** Makes one person's collection writes take turns (creating, renaming: the limit and the slugs are counted under it). */
export async function lockOwnerCollections(tx: Db, ownerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`collections:${ownerId}`}, 0))`);
}

export async function countOwnerCollections(db: Db, ownerId: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from collections where owner_id = ${ownerId}::uuid`,
  );
  return row?.count ?? 0;
}

/** The owner's slugs that are `base` or `base-N` (but the collection `except`, being renamed). */
export async function selectSlugsLike(db: Db, ownerId: string, base: string, except?: string): Promise<string[]> {
  const rows = await queryRows<{ slug: string }>(
    db,
    sql`select slug from collections
        where owner_id = ${ownerId}::uuid and (slug = ${base} or (left(slug, ${base.length + 1}) = ${`${base}-`}
          and substr(slug, ${base.length + 2}) ~ '^[0-9]+$'))
          ${except ? sql`and id <> ${except}::uuid` : sql``}`,
  );
  return rows.map((row) => row.slug);
}

export async function insertCollection(
  tx: Db,
  values: { ownerId: string; slug: string; title: string; description: string; isPublic: boolean },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into collections (owner_id, slug, title, description, is_public)
        values (${values.ownerId}::uuid, ${values.slug}, ${values.title}, ${values.description}, ${values.isPublic})
        returning id`,
  );
  return row!.id;
}

/** The collection row a write acts on, locked for the rest of the transaction: its works' writes take turns. */
export async function lockCollection(
  tx: Db,
  id: string,
): Promise<{ id: string; owner_id: string; is_public: boolean; work_count: number } | undefined> {
  const [row] = await queryRows<{ id: string; owner_id: string; is_public: boolean; work_count: number }>(
    tx,
    sql`select id, owner_id, is_public, work_count from collections where id = ${id}::uuid for update`,
  );
  return row;
}

export async function updateCollectionRow(
  tx: Db,
  id: string,
  changes: { slug?: string; title?: string; description?: string; isPublic?: boolean },
): Promise<void> {
  const sets: SQL[] = [sql`updated_at = now()`];
  if (changes.slug !== undefined) sets.push(sql`slug = ${changes.slug}`);
  if (changes.title !== undefined) sets.push(sql`title = ${changes.title}`);
  if (changes.description !== undefined) sets.push(sql`description = ${changes.description}`);
  if (changes.isPublic !== undefined) sets.push(sql`is_public = ${changes.isPublic}`);
  await tx.execute(sql`update collections set ${sql.join(sets, sql`, `)} where id = ${id}::uuid`);
}

/** A change to the works: updated_at says when (the page's freshness). */
export async function touchCollection(tx: Db, id: string): Promise<void> {
  await tx.execute(sql`update collections set updated_at = now() where id = ${id}::uuid`);
}

export async function deleteCollectionRow(db: Db, id: string): Promise<void> {
  await db.execute(sql`delete from collections where id = ${id}::uuid`);
}

/** Who made the post, whether it came from another server, and whether its artist lets others collect it. */
export async function selectPostOrigin(
  db: Db,
  postId: string,
): Promise<{ author_id: string; author_username: string; remote: boolean; allow_collecting: boolean } | undefined> {
  const [row] = await queryRows<{
    author_id: string;
    author_username: string;
    remote: boolean;
    allow_collecting: boolean;
  }>(
    db,
    sql`select p.author_id, u.username as author_username, p.note_iri is not null as remote, u.allow_collecting
        from posts p join users u on u.id = p.author_id where p.id = ${postId}::uuid`,
  );
  return row;
}

export async function insertWork(
  tx: Db,
  values: { collectionId: string; postId: string; position: number; note: string },
): Promise<void> {
  await tx.execute(
    sql`insert into collection_works (collection_id, post_id, position, note)
        values (${values.collectionId}::uuid, ${values.postId}::uuid, ${values.position}, ${values.note})`,
  );
}

export async function updateWorkPosition(
  tx: Db,
  collectionId: string,
  postId: string,
  position: number,
): Promise<void> {
  await tx.execute(
    sql`update collection_works set position = ${position}
        where collection_id = ${collectionId}::uuid and post_id = ${postId}::uuid`,
  );
}

export async function updateWorkNote(tx: Db, collectionId: string, postId: string, note: string): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`update collection_works set note = ${note}
        where collection_id = ${collectionId}::uuid and post_id = ${postId}::uuid returning 1`,
  );
  return rows.length > 0;
}

/** Takes the work out of the collection; false when it was not in it. */
export async function deleteWork(tx: Db, collectionId: string, postId: string): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`delete from collection_works where collection_id = ${collectionId}::uuid and post_id = ${postId}::uuid
        returning 1`,
  );
  return rows.length > 0;
}

export interface WorkRow {
  post_id: string;
  position: number;
  note: string;
  added_at: string;
}

/** Up to `count` works of the collection past the position `after`, in order, that the viewer may see. */
export function selectWorkRows(
  db: Db,
  collectionId: string,
  viewerId: string | null,
  after: number | undefined,
  count: number,
): Promise<WorkRow[]> {
  return queryRows<WorkRow>(
    db,
    sql`select cw.post_id, cw.position, cw.note, ${isoDate('cw.added_at')} as added_at
        from collection_works cw join posts p on p.id = cw.post_id
        where cw.collection_id = ${collectionId}::uuid ${after === undefined ? sql`` : sql`and cw.position > ${after}`}
          and ${workShownTo(viewerId)}
        order by cw.position ${literalLimit(count)}`,
  );
}

/** Which of the user's collections hold the post, and whether they bookmarked it (their Saved). */
export async function selectPostCollections(
  db: Db,
  postId: string,
  userId: string,
): Promise<{ saved: boolean; collection_ids: string[] }> {
  const [row] = await queryRows<{ saved: boolean; collection_ids: string[] }>(
    db,
    sql`select exists (select from bookmarks b where b.user_id = ${userId}::uuid and b.post_id = ${postId}::uuid) as saved,
               array(select cw.collection_id::text from collection_works cw join collections c on c.id = cw.collection_id
                     where cw.post_id = ${postId}::uuid and c.owner_id = ${userId}::uuid
                     order by c.created_at desc, c.id desc) as collection_ids`,
  );
  return row ?? { saved: false, collection_ids: [] };
}
