type DbError = { code?: string; constraint?: string; cause?: unknown };

/** The error with this SQLSTATE in a database error's chain (Drizzle wraps the driver's). */
function withCode(error: unknown, code: string): DbError | undefined {
  for (let e = error as DbError | undefined; e; e = e.cause as DbError | undefined) if (e.code === code) return e;
  return undefined;
}

/** True when a database error is a unique-constraint violation (of `constraint`, when given). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const found = withCode(error, '23505');
  return found !== undefined && (constraint === undefined || found.constraint === constraint);
}

/** True when a database error is a violation of the foreign key `constraint`. */
export function isForeignKeyViolation(error: unknown, constraint: string): boolean {
  return withCode(error, '23503')?.constraint === constraint;
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/**
 * node-postgres's own words for a lost connection (they carry no code). "… is not queryable" is what a
 * transaction's ROLLBACK meets on a client whose server went away, and that error replaces the first.
 */
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|is not queryable/i;

/** True when the database cannot be reached or is shutting down (the request may succeed later). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as { code?: string; message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('08'))) return true;
    if (UNAVAILABLE_MESSAGES.test(e.message ?? '')) return true;
  }
  return false;
}

/**
 * True when the database refused a text value it cannot store: PostgreSQL text cannot hold a NUL
 * character (`\u0000`, or `%00` in a URL), whichever field or parameter it came in.
 */
export function isUnstorableText(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '22021' || e.code === '22P05') return true;
  }
  return false;
}
