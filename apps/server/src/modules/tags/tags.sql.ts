import { sql } from 'drizzle-orm';
import { TAG_LIMITS } from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';
import { publishSql } from '../../events/events.js';
import { keysetPage, keysetQuery, type Keyset } from '../../lib/keyset.js';
import { prefixEnd } from '../users/index.js';

/** A tag with its count and whether the viewer follows it. */
export interface TagStateRow {
  tag: string;
  post_count: number;
  following: boolean;
}

const following = (viewerId: string | null, tag: ReturnType<typeof sql>) =>
  viewerId === null
    ? sql`false`
    : sql`exists (select from tag_follows f where f.user_id = ${viewerId}::uuid and f.tag = ${tag})`;

/** The tag's count (0 when no post carries it) and whether the viewer follows it. */
export async function selectTagState(db: Db, tag: string, viewerId: string | null): Promise<TagStateRow> {
  const [row] = await queryRows<TagStateRow>(
    db,
    sql`select ${tag}::text as tag,
               coalesce((select t.post_count from tags t where t.tag = ${tag}), 0) as post_count,
               ${following(viewerId, sql`${tag}`)} as following`,
  );
  return row!;
}

/**
 * Follows a tag unless the user already does; refused (`false`) when they follow TAG_LIMITS.followMax
 * already. The user's row is locked first, so two follows at the cap take turns and cannot both pass.
 */
export async function insertTagFollow(db: Db, userId: string, tag: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from users where id = ${userId}::uuid for no key update`);
    const [row] = await queryRows<{ already: boolean; count: number }>(
      tx,
      sql`select exists (select from tag_follows where user_id = ${userId}::uuid and tag = ${tag}) as already,
                 (select count(*)::int from tag_follows where user_id = ${userId}::uuid) as count`,
    );
    if (row!.already) return true;
    if (Number(row!.count) >= TAG_LIMITS.followMax) return false;
    // Their Home shows the tag's posts now: every process forgets the Home it keeps for them (issue 26).
    await tx.execute(
      sql`with added as (
            insert into tag_follows (user_id, tag) values (${userId}::uuid, ${tag}) on conflict do nothing returning tag
          )
          select count(${publishSql({ type: 'viewer-changed', userId: sql`${userId}::text` })}) from added`,
    );
    return true;
  });
}

/** Unfollows the tag; every process forgets the Home it keeps for them when there was such a follow. */
export async function deleteTagFollow(db: Db, userId: string, tag: string): Promise<void> {
  await db.execute(
    sql`with removed as (delete from tag_follows where user_id = ${userId}::uuid and tag = ${tag} returning tag)
        select count(${publishSql({ type: 'viewer-changed', userId: sql`${userId}::text` })}) from removed`,
  );
}

const FOLLOWED_ORDER: Keyset = {
  columns: [sql.raw('f.created_at'), sql.raw('f.tag')],
  shape: ['date', 'text'],
  direction: 'desc',
};

/** The tags the user follows, the most recently followed first, with their counts; keyset paged. */
export async function selectFollowedTags(
  db: Db,
  userId: string,
  options: { cursor?: string | undefined; limit: number },
): Promise<{ page: TagStateRow[]; nextCursor: string | null }> {
  const { after, orderBy, limit } = keysetQuery(FOLLOWED_ORDER, options.cursor, options.limit);
  const rows = await queryRows<TagStateRow & { created_at: Date | string }>(
    db,
    sql`select f.tag, f.created_at, coalesce(t.post_count, 0) as post_count, true as following
        from tag_follows f left join tags t on t.tag = f.tag
        where f.user_id = ${userId}::uuid and ${after}
        order by ${orderBy}
        ${limit}`,
  );
  return keysetPage(rows, options.limit, FOLLOWED_ORDER.shape, (row) => [row.created_at, row.tag]);
}

/**
 * Tags that start with `prefix` (lower case; any tag when empty), the most used first, then by name;
 * tags no post carries any more are left out. A prefix is a range of the byte-ordered index, which keeps
 * its index in a prepared statement's generic plan.
 */
export async function selectTagSuggestions(
  db: Db,
  prefix: string,
  limit: number,
): Promise<{ tag: string; post_count: number }[]> {
  const range = prefix
    ? sql`(t.tag collate "C") >= ${prefix} and (t.tag collate "C") < ${prefixEnd(prefix)}`
    : sql`true`;
  return queryRows(
    db,
    sql`select t.tag, t.post_count from tags t
        where ${range} and t.post_count > 0
        order by t.post_count desc, t.tag
        limit ${limit}`,
  );
}
