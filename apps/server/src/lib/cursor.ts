import { badRequest } from './http-error.js';
import { isUuid } from './ids.js';

export type CursorPart = 'int' | 'float' | 'date' | 'uuid' | 'text';
export type CursorValue = number | Date | string;

const INVALID =
  'cursor is not valid: pass the nextCursor of the previous page unchanged, or omit it for the first page.';

// Every value a page can put in a cursor, and nothing else reaches SQL: dates exactly as
// Date#toISOString writes them for years 0001–9999 (timestamps are stored to the millisecond; a
// larger year is written "+275760-…", which PostgreSQL cannot read, and PostgreSQL has no year 0),
// integers in the range of the int4 counters they page by, finite floats.
const ISO_DATE = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const INT4_MIN = -(2 ** 31);
const INT4_MAX = 2 ** 31 - 1;

/** An opaque keyset cursor: the sort key of the last row of a page. */
export function encodeCursor(values: CursorValue[]): string {
  const plain = values.map((value) => (value instanceof Date ? value.toISOString() : value));
  return Buffer.from(JSON.stringify(plain)).toString('base64url');
}

/** Decodes a cursor made by encodeCursor for a sort key of the given shape; anything else is a 400. */
export function decodeCursor(cursor: string, shape: CursorPart[]): CursorValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(INVALID);
  }
  if (!Array.isArray(parsed) || parsed.length !== shape.length) throw badRequest(INVALID);
  return shape.map((kind, i) => {
    const value: unknown = parsed[i];
    if (kind === 'int' && Number.isInteger(value) && (value as number) >= INT4_MIN && (value as number) <= INT4_MAX) {
      return value as number;
    }
    if (kind === 'float' && typeof value === 'number' && Number.isFinite(value)) return value;
    if (kind === 'uuid' && typeof value === 'string' && isUuid(value)) return value;
    // A short key such as a tag; it reaches SQL as a bound parameter only.
    if (kind === 'text' && typeof value === 'string' && value.length <= 200) return value;
    if (kind === 'date' && typeof value === 'string' && ISO_DATE.test(value)) {
      const date = new Date(value);
      // The round trip refuses impossible days (2026-02-31) that Date would roll over.
      if (!Number.isNaN(date.getTime()) && date.toISOString() === value) return date;
    }
    throw badRequest(INVALID);
  });
}
