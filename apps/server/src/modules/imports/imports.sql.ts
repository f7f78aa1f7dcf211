import { sql } from 'drizzle-orm';
import type { ImportOptions, ImportSource, ImportState } from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';

/** Every statement of the imports module (issue 40): `imports` and `import_items`. */

export interface ImportPreview {
  works: number;
  pictures: number;
  skipped: number;
  videos: number;
  from: string | null;
  to: string | null;
  first: { caption: string; date: string | null; pictures: number }[];
  /** The archive's profile as read (its whole bio, its photo's file in the archive), absent in imports before it. */
  profile?: { bio: string; photo: string | null } | null;
  /**
   * What the job did with it, once applied (the choice `profile`). Kept in the preview's document: the imports table
   * has no column for it, and it is written once per import.
   */
  profileApplied?: { bio: boolean; photo: boolean; problem: string | null };
}

export interface ImportRow {
  id: string;
  user_id: string;
  source: ImportSource;
  state: ImportState;
  file_name: string;
  bytes: string | number;
  origin: string | null;
  options: Partial<ImportOptions>;
  preview: ImportPreview;
  posts_total: number;
  pictures_total: number;
  posts_done: number;
  pictures_done: number;
  imported: number;
  skipped: number;
  resumed_at: string | Date | null;
  pictures_at_resume: number;
  error: string | null;
  created_at: string | Date;
  finished_at: string | Date | null;
}

export async function insertImport(
  db: Db,
  row: {
    id: string;
    userId: string;
    source: ImportSource;
    fileName: string;
    bytes: number;
    origin: string | null;
    preview: ImportPreview;
    postsTotal: number;
    picturesTotal: number;
  },
): Promise<ImportRow> {
  const [inserted] = await queryRows<ImportRow>(
    db,
    sql`insert into imports (id, user_id, source, state, file_name, bytes, origin, preview, posts_total, pictures_total)
        values (${row.id}::uuid, ${row.userId}::uuid, ${row.source}, 'ready', ${row.fileName}, ${row.bytes}, ${row.origin},
                ${JSON.stringify(row.preview)}::jsonb, ${row.postsTotal}, ${row.picturesTotal})
        returning *`,
  );
  return inserted!;
}

export async function selectImport(db: Db, id: string, userId?: string): Promise<ImportRow | undefined> {
  const [row] = await queryRows<ImportRow>(
    db,
    sql`select * from imports where id = ${id}::uuid ${userId ? sql`and user_id = ${userId}::uuid` : sql``}`,
  );
  return row;
}

/** The account's newest imports, newest first. */
export const selectImports = (db: Db, userId: string, limit: number) =>
  queryRows<ImportRow>(
    db,
    sql`select * from imports where user_id = ${userId}::uuid order by created_at desc, id desc limit ${limit}`,
  );

/** The account's imports not started (a new upload replaces them): their ids, to remove their files. */
export const deleteReadyImports = async (db: Db, userId: string): Promise<string[]> =>
  (
    await queryRows<{ id: string }>(
      db,
      sql`delete from imports where user_id = ${userId}::uuid and state = 'ready' returning id`,
    )
  ).map((row) => row.id);

/** Whether the account has an import queued or running. */
export async function hasRunningImport(db: Db, userId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from imports where user_id = ${userId}::uuid and state in ('queued', 'running')`,
  );
  return rows.length > 0;
}

/** Whether another account has imported (or is importing) this origin's archive. */
export async function originTaken(db: Db, origin: string, userId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from imports where origin = ${origin} and user_id <> ${userId}::uuid and state <> 'ready' limit 1`,
  );
  return rows.length > 0;
}

/** Queues a previewed import with its choices; undefined when it was not waiting (started, or not the account's). */
export async function queueImport(db: Db, id: string, userId: string, options: ImportOptions) {
  const [row] = await queryRows<ImportRow>(
    db,
    sql`update imports set state = 'queued', options = ${JSON.stringify(options)}::jsonb
        where id = ${id}::uuid and user_id = ${userId}::uuid and state = 'ready' returning *`,
  );
  return row;
}

/** The job (re)starts: the pace of the estimate is measured from here. */
export async function markRunning(db: Db, id: string): Promise<ImportRow | undefined> {
  const [row] = await queryRows<ImportRow>(
    db,
    sql`update imports set state = 'running', resumed_at = now(), pictures_at_resume = pictures_done
        where id = ${id}::uuid and state in ('queued', 'running') returning *`,
  );
  return row;
}

export async function finishImport(db: Db, id: string, state: 'done' | 'failed', error: string | null) {
  await queryRows(
    db,
    sql`update imports set state = ${state}, error = ${error}, finished_at = now() where id = ${id}::uuid`,
  );
}

/** Where a restarted job goes on: the place after the last source post it handled. */
export async function selectNextPosition(db: Db, importId: string): Promise<number> {
  const [row] = await queryRows<{ next: number }>(
    db,
    sql`select coalesce(max(position) + 1, 0)::int as next from import_items where import_id = ${importId}::uuid`,
  );
  return row!.next;
}

/** The work an earlier import of the account made of this source post, if any (null when it was deleted since). */
export async function selectImportedPost(
  db: Db,
  userId: string,
  sourceKey: string,
): Promise<{ post_id: string | null } | undefined> {
  const [row] = await queryRows<{ post_id: string | null }>(
    db,
    sql`select post_id from import_items
        where user_id = ${userId}::uuid and source_key = ${sourceKey} and outcome = 'imported'`,
  );
  return row;
}

/** The works this import made at these places in the archive. */
export const selectPostsAt = (db: Db, importId: string, positions: number[]) =>
  queryRows<{ position: number; post_id: string | null }>(
    db,
    sql`select position, post_id from import_items
        where import_id = ${importId}::uuid and position = any(${`{${positions.join(',')}}`}::int[])`,
  );

export interface ImportItemRow {
  position: number;
  source_key: string;
  outcome: 'imported' | 'already' | 'skipped';
  post_id: string | null;
  reason: string | null;
  caption: string;
  date: string | Date | null;
  pictures: number;
}

/** A page of an import's items in archive order, after `after`; `outcome` imported, or skipped (with already). */
export const selectItems = (
  db: Db,
  importId: string,
  { outcome, after, limit }: { outcome?: 'imported' | 'skipped' | undefined; after: number; limit: number },
) =>
  queryRows<ImportItemRow>(
    db,
    sql`select position, source_key, outcome, post_id, reason, caption, date, pictures from import_items
        where import_id = ${importId}::uuid and position > ${after}
          ${outcome === 'imported' ? sql`and outcome = 'imported'` : outcome === 'skipped' ? sql`and outcome <> 'imported'` : sql``}
        order by position limit ${limit}`,
  );

/** The archives whose imports are gone or finished (their files may go), among these ids. */
export const selectLiveImportIds = async (db: Db, ids: string[]): Promise<Set<string>> =>
  new Set(
    (
      await queryRows<{ id: string }>(
        db,
        sql`select id from imports where id = any(${`{${ids.join(',')}}`}::uuid[]) and state in ('ready', 'queued', 'running')`,
      )
    ).map((row) => row.id),
  );
