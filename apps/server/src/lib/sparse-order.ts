import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';
import { isUuid } from './ids.js';

/**
 * An ordered list of items kept on a sparse integer key (issue 41: a series' works, a collection's works). Each row
 * is (group, item, position), its position unique per group by a key deferrable to the statement's end. Works are
 * POSITION_STEP apart after a renumbering; a move or an insertion takes the middle of the gap where it goes and
 * writes one row. When a gap is used up (16 moves into the same place) the group is renumbered in one statement, under
 * the caller's lock of the group, and the move goes on. docs/series.md says why not gapless positions or text keys.
 *
 * The statements are the same for every such list; each module names its own table (in its `<module>.sql.ts`), and
 * writes only that.
 */

/** The gap between two items after a renumbering: 2^16, so 10,000 items fit in an int4 with room to append. */
export const POSITION_STEP = 65536;
export const POSITION_MAX = 2 ** 31 - 1;

/** The table of one ordered list: its name, the column naming the group and the one naming the item. */
export interface SparseTable {
  table: 'series_works' | 'collection_works';
  group: 'series_id' | 'collection_id';
  item: 'post_id';
}

export interface SparseOrder {
  /** The item's position in the group; undefined when it is not in it (or `itemId` is no id). */
  positionOf(db: Db, groupId: string, itemId: string): Promise<number | undefined>;
  /**
   * A free position right after the item `after` (undefined: the end; null: the start), the item `moving` left out:
   * the middle of the gap there, or the end plus a step. When the gap is used up (or the end reaches the int4 limit),
   * the group is renumbered once and the place taken again. `after` not in the group: `afterMissing()` is thrown.
   * The caller holds the group's lock (its row `for update`) for the rest of its transaction.
   */
  placeAfter(
    tx: Db,
    groupId: string,
    after: string | null | undefined,
    options: { moving?: string; afterMissing: () => Error },
  ): Promise<number>;
  /** Spreads the group's items to multiples of POSITION_STEP in their order (one statement). */
  renumber(tx: Db, groupId: string): Promise<void>;
}

/** The statements of one ordered list (see SparseOrder). */
export function sparseOrder({ table, group, item }: SparseTable): SparseOrder {
  const t = sql.raw(`"${table}"`);
  const g = sql.raw(`"${group}"`);
  const i = sql.raw(`"${item}"`);

  async function positionOf(db: Db, groupId: string, itemId: string): Promise<number | undefined> {
    if (!isUuid(itemId)) return undefined;
    const [row] = await queryRows<{ position: number }>(
      db,
      sql`select position from ${t} where ${g} = ${groupId}::uuid and ${i} = ${itemId}::uuid`,
    );
    return row?.position;
  }

  /** The positions around a place (see placeAfter), leaving out `moving`. */
  async function gap(
    db: Db,
    groupId: string,
    after: { position: number } | null | undefined,
    moving: string | undefined,
  ): Promise<{ lower: number | null; upper: number | null }> {
    const others = moving ? sql`and ${i} <> ${moving}::uuid` : sql``;
    if (after === undefined) {
      const [row] = await queryRows<{ lower: number | null }>(
        db,
        sql`select max(position) as lower from ${t} where ${g} = ${groupId}::uuid ${others}`,
      );
      return { lower: row?.lower ?? null, upper: null };
    }
    const [row] = await queryRows<{ upper: number | null }>(
      db,
      sql`select min(position) as upper from ${t}
          where ${g} = ${groupId}::uuid ${others} ${after === null ? sql`` : sql`and position > ${after.position}`}`,
    );
    return { lower: after === null ? null : after.position, upper: row?.upper ?? null };
  }

  async function renumber(tx: Db, groupId: string): Promise<void> {
    await tx.execute(
      sql`update ${t} w set position = (r.n * ${POSITION_STEP})::int
          from (select ${i} as item, row_number() over (order by position) as n from ${t}
                where ${g} = ${groupId}::uuid) r
          where w.${g} = ${groupId}::uuid and w.${i} = r.item`,
    );
  }

  async function placeAfter(
    tx: Db,
    groupId: string,
    after: string | null | undefined,
    { moving, afterMissing }: { moving?: string; afterMissing: () => Error },
  ): Promise<number> {
    for (let attempt = 0; attempt < 2; attempt++) {
      let at: { position: number } | null | undefined = after === null ? null : undefined;
      if (typeof after === 'string') {
        const position = await positionOf(tx, groupId, after);
        if (position === undefined) throw afterMissing();
        at = { position };
      }
      const { lower, upper } = await gap(tx, groupId, at, moving);
      const low = lower ?? 0;
      const position = upper === null ? low + POSITION_STEP : low + Math.floor((upper - low) / 2);
      if (position > low && (upper === null || position < upper) && position <= POSITION_MAX) return position;
      await renumber(tx, groupId);
    }
    // After a renumbering every gap is POSITION_STEP wide and the end far below the limit.
    throw new Error(`No position is free in ${table} ${groupId} after renumbering it`);
  }

  return { positionOf, placeAfter, renumber };
}
