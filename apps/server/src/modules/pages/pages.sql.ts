import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';

/** A post a signed-out reader may see: its author does not show their works to signed-in people only. */
const shownToVisitors = sql`not exists (select from users u where u.id = p.author_id and u.works_signed_in_only)`;

/** A work made here: another server's works (issue 39, `note_iri`) are on no tag page. */
const OURS = sql`p.note_iri is null`;

/**
 * A tag's preview (reads only: the posts table is the posts module's): how many posts carry the tag, and
 * the newest of them, whose first picture the preview shows.
 */
export async function selectTagSummary(db: Db, tag: string): Promise<{ count: number; newestId: string | null }> {
  const [row] = await queryRows<{ count: string | number; newest_id: string | null }>(
    db,
    sql`select (select count(*) from posts p where p.tags @> array[${tag}]::text[] and ${OURS} and ${shownToVisitors}) as count,
               (select p.id from posts p where p.tags @> array[${tag}]::text[] and ${OURS} and ${shownToVisitors}
                 order by p.created_at desc, p.id desc limit 1) as newest_id`,
  );
  return { count: Number(row?.count ?? 0), newestId: row?.newest_id ?? null };
}

/**
 * Whether a post exists but its author shows their works to signed-in people only (its preview then names
 * the site alone); false for a visible post or none.
 */
export async function selectPostHiddenFromVisitors(db: Db, postId: string): Promise<boolean> {
  const [row] = await queryRows<{ hidden: boolean }>(
    db,
    sql`select u.works_signed_in_only as hidden from posts p join users u on u.id = p.author_id
        where p.id = ${postId}::uuid`,
  );
  return row?.hidden === true;
}

/** The newest post of a user (the profile preview shows its first picture), or null. */
export async function selectNewestPostId(db: Db, userId: string): Promise<string | null> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select id from posts where author_id = ${userId}::uuid order by created_at desc, id desc limit 1`,
  );
  return row?.id ?? null;
}

/** Whether this person asks AI crawlers not to train on their work (issue 23); true when there is no such user. */
export async function selectAiTrainingOptOut(db: Db, userId: string): Promise<boolean> {
  const [row] = await queryRows<{ opt_out: boolean }>(
    db,
    sql`select ai_training_opt_out as opt_out from users where id = ${userId}::uuid`,
  );
  return row?.opt_out ?? true;
}

/**
 * Where a remote work lives (issue 39, following out): its page on its own server, or its Note's id when it named
 * no page; undefined for a work made here, or none.
 */
export async function selectRemoteWorkPage(db: Db, postId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ page: string }>(
    db,
    sql`select coalesce(note_url, note_iri) as page from posts where id = ${postId}::uuid and note_iri is not null`,
  );
  return row?.page;
}

/**
 * Where a remote person lives (a shadow account, issue 39): their profile page on their own server, or their actor
 * id; undefined for an account here, or none.
 */
export async function selectRemoteProfilePage(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ page: string }>(
    db,
    sql`select coalesce(ra.profile_url, ra.iri) as page from users u join remote_actors ra on ra.id = u.remote_actor_id
        where u.id = ${userId}::uuid`,
  );
  return row?.page;
}
