import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { media } from '../../db/schema.js';

export type MediaRow = typeof media.$inferSelect;
export type NewMediaRow = typeof media.$inferInsert;

export async function insertMedia(db: Db, row: NewMediaRow): Promise<MediaRow> {
  const [inserted] = await db.insert(media).values(row).returning();
  return inserted!;
}

export async function selectMediaById(db: Db, id: string): Promise<MediaRow | undefined> {
  const [row] = await db.select().from(media).where(eq(media.id, id));
  return row;
}

export async function selectMediaByIds(db: Db, ids: string[]): Promise<MediaRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(media).where(inArray(media.id, ids));
}

export async function updateMediaAlt(db: Db, id: string, alt: string): Promise<MediaRow | undefined> {
  const [row] = await db.update(media).set({ alt }).where(eq(media.id, id)).returning();
  return row;
}

export async function deleteMediaRow(db: Db, id: string): Promise<MediaRow | undefined> {
  const [row] = await db.delete(media).where(eq(media.id, id)).returning();
  return row;
}

/** The ids among `ids` that have a row. */
export async function selectMediaIdsAmong(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: media.id }).from(media).where(inArray(media.id, ids));
  return rows.map((row) => row.id);
}
