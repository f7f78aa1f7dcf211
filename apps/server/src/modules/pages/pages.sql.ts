import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';

/**
 * A tag's preview (reads only: the posts table is the posts module's): how many posts carry the tag, and
 * the newest of them, whose first picture the preview shows.
 */
export async function selectTagSummary(db: Db, tag: string): Promise<{ count: number; newestId: string | null }> {
  const [row] = await queryRows<{ count: string | number; newest_id: string | null }>(
    db,
    sql`select (select count(*) from posts where tags @> array[${tag}]::text[]) as count,
               (select id from posts where tags @> array[${tag}]::text[]
                 order by created_at desc, id desc limit 1) as newest_id`,
  );
  return { count: Number(row?.count ?? 0), newestId: row?.newest_id ?? null };
}

/** The newest post of a user (the profile preview shows its first picture), or null. */
export async function selectNewestPostId(db: Db, userId: string): Promise<string | null> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select id from posts where author_id = ${userId}::uuid order by created_at desc, id desc limit 1`,
  );
  return row?.id ?? null;
}
