import { badRequest } from './http-error.js';
import { isUuid } from './ids.js';

export type CursorPart = 'int' | 'float' | 'date' | 'uuid';
export type CursorValue = number | Date | string;

const INVALID =
  'cursor is not valid: pass the nextCursor of the previous page unchanged, or omit it for the first page.';

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
    if (kind === 'int' && Number.isSafeInteger(value)) return value as number;
    if (kind === 'float' && typeof value === 'number' && Number.isFinite(value)) return value;
    if (kind === 'uuid' && typeof value === 'string' && isUuid(value)) return value;
    if (kind === 'date' && typeof value === 'string') {
      const date = new Date(value);
      if (!Number.isNaN(date.getTime())) return date;
    }
    throw badRequest(INVALID);
  });
}
