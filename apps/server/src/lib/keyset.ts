import { sql, type SQL } from 'drizzle-orm';
import { decodeCursor, encodeCursor, type CursorPart, type CursorValue } from './cursor.js';
import { literalLimit } from './sql-limit.js';

/**
 * How a list is ordered for keyset paging: the columns of its sort key (the last one unique, such as an
 * id), what each holds, and one direction for all of them.
 */
export interface Keyset {
  columns: SQL[];
  shape: CursorPart[];
  direction: 'asc' | 'desc';
}

const CASTS: Record<CursorPart, string> = {
  uuid: 'uuid',
  date: 'timestamptz',
  float: 'float8',
  int: 'int',
  text: 'text',
};

/**
 * The parts of one page's statement: `after` (the rows past the cursor, true without one), `orderBy`
 * and `limit` (one row more than the page, which tells whether there is a next page). A malformed
 * cursor is a 400.
 */
export function keysetQuery(keyset: Keyset, cursor: string | undefined, limit: number) {
  let after = sql`true`;
  if (cursor) {
    const values = decodeCursor(cursor, keyset.shape);
    const placeholders = values.map((value, i) => sql`${value}::${sql.raw(CASTS[keyset.shape[i]!])}`);
    after = sql`(${sql.join(keyset.columns, sql`, `)}) ${sql.raw(keyset.direction === 'desc' ? '<' : '>')} (${sql.join(placeholders, sql`, `)})`;
  }
  const direction = sql.raw(keyset.direction);
  return {
    after,
    orderBy: sql.join(
      keyset.columns.map((column) => sql`${column} ${direction}`),
      sql`, `,
    ),
    limit: literalLimit(limit + 1),
  };
}

/**
 * The page out of the rows `keysetQuery` fetched (one more than `limit` when there is a next page), and
 * the cursor of the next page: the sort key of its last row, which `key` reads (null at the end).
 */
export function keysetPage<Row>(
  rows: Row[],
  limit: number,
  shape: CursorPart[],
  key: (row: Row) => unknown[],
): { page: Row[]; nextCursor: string | null } {
  const page = rows.length > limit ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last ? encodeCursor(key(last).map((value, i) => normalize(value, shape[i]!))) : null;
  return { page, nextCursor };
}

/** A key as the database driver returned it (a date as text, a bigint as text) in its cursor form. */
const normalize = (value: unknown, part: CursorPart): CursorValue =>
  part === 'date'
    ? new Date(value as string | Date)
    : part === 'int' || part === 'float'
      ? Number(value)
      : String(value);

/**
 * One page of a ranked list held in memory (search matches, best first), paged by the same kind of
 * cursor: the key of the last hit shown, every part descending. A hit past the cursor is one whose key
 * sorts after it, so a page is right even when the list changed between two requests.
 */
export function rankedPage<Hit>(
  hits: Hit[],
  options: { cursor: string | undefined; limit: number; shape: CursorPart[]; key: (hit: Hit) => CursorValue[] },
): { page: Hit[]; nextCursor: string | null } {
  let start = 0;
  if (options.cursor) {
    const last = decodeCursor(options.cursor, options.shape);
    start = hits.findIndex((hit) => compareKeys(options.key(hit), last) < 0);
    if (start === -1) start = hits.length;
  }
  const page = hits.slice(start, start + options.limit);
  const end = page.at(-1);
  return {
    page,
    nextCursor: start + options.limit < hits.length && end ? encodeCursor(options.key(end)) : null,
  };
}

/** Compares two sort keys part by part, as the list orders them ascending; numbers, dates, then text. */
function compareKeys(a: CursorValue[], b: CursorValue[]): number {
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i]!, b[i]!];
    const [u, v] = [x instanceof Date ? x.getTime() : x, y instanceof Date ? y.getTime() : y];
    if (u < v) return -1;
    if (u > v) return 1;
  }
  return 0;
}
