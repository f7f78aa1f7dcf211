import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { hash, randomBytes } from 'node:crypto';
import pg, { type QueryResultRow } from 'pg';
import { LRUCache } from 'lru-cache';
import type { SQL } from 'drizzle-orm';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The connection string, for PostgreSQL. */
  url?: string;
  /** The embedded database's client, for what speaks to it directly (the job queue). */
  pglite?: PGlite;
  /**
   * Subscribes to a `NOTIFY` channel; answers the unsubscribe function. On PostgreSQL this holds one
   * dedicated connection that comes back by itself after a drop; `onResume` runs once it is back, since
   * events sent while it was away are lost and the listener must catch up from the tables.
   */
  listen(channel: string, onPayload: (payload: string) => void, onResume?: () => void): Promise<() => Promise<void>>;
  /** The connection pools, by name, for the metrics (issue 25); absent for the embedded database. */
  pools?: () => { name: string; pool: pg.Pool }[];
  close(): Promise<void>;
}

/**
 * Opens the embedded database in `dir` (in memory when `dir` is undefined); `loadDataDir` starts it as a copy
 * of a dumped one (the tests' migrated template) instead of an empty one.
 */
export async function openPglite(dir: string | undefined, options: { loadDataDir?: Blob } = {}): Promise<Database> {
  if (dir) await mkdir(path.dirname(dir), { recursive: true });
  const client = await PGlite.create(dir, {
    extensions: { pg_trgm },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    listen: async (channel, onPayload) => {
      const unlisten = await client.listen(channel, onPayload);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    close: () => client.close(),
  };
}

/** What runs a top-level query: a pg.Pool, or a replica's pool that falls back to the primary's (db/replicas.ts). */
export type QueryPool = Pick<pg.Pool, 'query'>;

/** The pool behind each top-level PostgreSQL Db (a transaction is not in here). */
const pools = new WeakMap<Db, QueryPool>();

/** The pool behind a top-level PostgreSQL Db; undefined for PGlite and transactions. */
export const poolOf = (db: Db): QueryPool | undefined => pools.get(db);

/** Records the pool behind a Db made elsewhere (a replica's), so queryRows prepares its statements there too. */
export function registerPool(db: Db, pool: QueryPool): void {
  pools.set(db, pool);
}

/**
 * The session setting that makes share_arts_publish (migration 0024) write an event to the outbox, which the
 * relay sends after commit (issue 26: see events/outbox.ts), instead of pg_notify in the writer's commit.
 */
export const OUTBOX_OPTION = '-c share_arts.outbox=on';

export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000, options: OUTBOX_OPTION });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // Nor may a checked-out one (a transaction's): the pool listens only to idle clients, and an 'error'
  // event nobody listens to ends the process. The query in progress gets the error (a 503), and the
  // broken client, no longer queryable, is dropped when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  pools.set(db, pool);
  await pool.query('select 1');
  return {
    db,
    kind: 'postgres',
    url,
    listen: (channel, onPayload, onResume) => listenPostgres(url, channel, onPayload, onResume),
    pools: () => [{ name: 'primary', pool }],
    close: () => pool.end(),
  };
}

async function listenPostgres(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
  onResume?: () => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
    });
    // A lost connection (the server restarted, the network dropped): listen again, backing off.
    next.on('error', () => {});
    next.on('end', () => {
      if (!stopped && client === next) {
        client = undefined;
        schedule(1000);
      }
    });
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    client = next;
  };
  const schedule = (delay: number) => {
    retry = setTimeout(() => {
      if (stopped) return;
      connect().then(
        () => onResume?.(),
        () => schedule(Math.min(delay * 2, 10_000)),
      );
    }, delay);
    retry.unref();
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

/** Date and time values as PostgreSQL writes them, as drizzle's own raw queries (and PGlite) return them. */
const RAW_TIME_TYPES = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
]);
const rawTimeParsers = {
  getTypeParser: (typeId: number, format?: 'text' | 'binary') =>
    RAW_TIME_TYPES.has(typeId) ? (value: string) => value : pg.types.getTypeParser(typeId, format),
};

const dialect = new PgDialect();

/**
 * Each statement's name, by its text: hashing the text on every query was 2.4 % of the server's CPU on a like.
 * The texts are the app's own (values are parameters), a few hundred; bounded all the same.
 */
const statementNames = new LRUCache<string, string>({ max: 2000 });

/** The name a statement is prepared under on each connection: its text's hash. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `q_${hash('sha1', text, 'base64url').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** A statement for node-postgres, named by its text (prepared once per connection) unless planned each time. */
function preparedQuery(query: SQL | BoundStatement, planEachTime = false): pg.QueryConfig {
  if (query instanceof BoundStatement) return query.query();
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { name: planEachTime ? undefined : statementName(text), text, values: params, types: rawTimeParsers };
}

/** A statement of a template (statementTemplate) with its values: its text was built once. */
export class BoundStatement {
  constructor(
    /** The statement as drizzle builds it (the embedded database runs that). */
    readonly sql: () => SQL,
    /** The statement for node-postgres: the template's text and name, these values as its parameters. */
    readonly query: () => pg.QueryConfig,
  ) {}
}

/**
 * Statements whose text depends only on `key`, built once per key: `build` first runs with stand-ins for
 * `values`, and later uses put the real values in their parameters. For a hot write whose statement is
 * large (a like's: 17 % of the server's CPU went into building its text with drizzle on every request).
 * Each value must be a parameter of its own (`${value}::uuid`), never part of the text or of another value;
 * building refuses a template that breaks this.
 */
export function statementTemplate<Key extends string, Value extends string, Part extends string>(
  build: (key: Key, values: Record<Value, string>) => Record<Part, SQL>,
): (key: Key, values: Record<Value, string>) => Record<Part, BoundStatement> {
  type Built = { text: string; name: string; params: unknown[]; slots: (Value | undefined)[] };
  const built = new Map<Key, Record<Part, Built>>();
  return (key, values) => {
    let parts = built.get(key);
    if (!parts) {
      const names = Object.keys(values) as Value[];
      // Plain lower-case letters and digits, which JSON, quoting and lower-casing keep as they are.
      const standIns = Object.fromEntries(
        names.map((name) => [name, `template${randomBytes(8).toString('hex')}${name.toLowerCase()}`]),
      ) as Record<Value, string>;
      const bare = (text: unknown) => typeof text === 'string' && names.some((name) => text.includes(standIns[name]));
      parts = {} as Record<Part, Built>;
      for (const [part, query] of Object.entries(build(key, standIns)) as [Part, SQL][]) {
        const { sql: text, params } = dialect.sqlToQuery(query);
        const slots = params.map((param) => names.find((name) => param === standIns[name]));
        if (bare(text) || params.some((param, i) => slots[i] === undefined && bare(param))) {
          throw new Error(`statementTemplate: a value of "${part}" is not a parameter of its own`);
        }
        parts[part] = { text, name: statementName(text), params, slots };
      }
      built.set(key, parts);
    }
    const bound = {} as Record<Part, BoundStatement>;
    for (const [part, { text, name, params, slots }] of Object.entries(parts) as [Part, Built][]) {
      bound[part] = new BoundStatement(
        () => build(key, values)[part],
        () => ({
          name,
          text,
          values: params.map((param, i) => (slots[i] === undefined ? param : values[slots[i]!])),
          types: rawTimeParsers,
        }),
      );
    }
    return bound;
  };
}

/**
 * Runs raw SQL and returns its rows (both drivers answer `{ rows }`). Outside a transaction on
 * PostgreSQL the statement is prepared once per connection (named by its text), so the hot reads are
 * not planned from scratch on every request. `planEachTime` is for a query whose best plan depends on
 * its values (trigram matches: an index for a rare word, a bounded scan for a common one), which a
 * prepared statement's generic plan, chosen without them, gets wrong. Timestamps come back as the text
 * PostgreSQL writes, on both drivers: parsing each row's into a Date was 3.4 % of the server's profile on a
 * page of posts, which uses at most one (its cursor's).
 */
export async function queryRows<T>(db: Db, query: SQL, options: { planEachTime?: boolean } = {}): Promise<T[]> {
  const pool = pools.get(db);
  if (pool) {
    const result = await pool.query<T & QueryResultRow>(preparedQuery(query, options.planEachTime));
    return result.rows;
  }
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Runs `statement` in a transaction after `lock` (a statement that locks rows): three round trips and
 * its COMMIT. The statement's snapshot is then taken with the lock held, so it sees every row that the
 * writers it waited for committed. A single statement that locks takes its snapshot before it waits, and
 * misses their rows in every other table (a notification written by the request it waited for, say).
 * On PostgreSQL both are prepared on the connection, as queryRows prepares its statements (issue 26:
 * the toggles' statement, a write and its notification in one, took longer to plan than to run).
 */
export async function queryRowsAfterLock<T>(
  db: Db,
  lock: SQL | BoundStatement,
  statement: SQL | BoundStatement,
  /** Whether to go on, from the rows the lock answered; when not, nothing is written and the answer is []. */
  proceed: (locked: QueryResultRow[]) => boolean = () => true,
): Promise<T[]> {
  const pool = pools.get(db);
  if (!(pool instanceof pg.Pool)) {
    const sqlOf = (query: SQL | BoundStatement) => (query instanceof BoundStatement ? query.sql() : query);
    return db.transaction(async (tx) => {
      const locked = (await tx.execute(sqlOf(lock))) as unknown as { rows: QueryResultRow[] };
      return proceed(locked.rows) ? queryRows<T>(tx, sqlOf(statement)) : [];
    });
  }
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin');
    const locked = await client.query(preparedQuery(lock));
    if (!proceed(locked.rows)) {
      await client.query('rollback');
      return [];
    }
    const result = await client.query<T & QueryResultRow>(preparedQuery(statement));
    await client.query('commit');
    return result.rows;
  } catch (error) {
    await client.query('rollback').catch((failed: Error) => (broken = failed));
    throw error;
  } finally {
    // A client whose rollback failed may still be in the transaction: it is closed, not reused.
    client.release(broken);
  }
}
