import pg from 'pg';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { isDatabaseUnavailable } from '../lib/db-errors.js';
import { poolOf, registerPool, type Db, type QueryPool } from './client.js';
import * as schema from './schema.js';

/**
 * Read replicas (DATABASE_REPLICA_URLS, issue 25). Routing is explicit: a hot read path asks
 * `reads.reader(viewerId)` for its db and runs plain selects on it; every write, transaction, cache
 * fill and the LISTEN connection keeps the primary's db. Nothing is guessed from the SQL.
 *
 * Freshness. Every `pollMs` the primary's WAL position (`pg_current_wal_lsn()`) is sampled with the
 * time, and each replica's replayed position (`pg_last_wal_replay_lsn()`). A replica has "caught up to"
 * the newest sample it has replayed past; its lag, at the moment a query is routed, is now minus that
 * sample's time (so it grows between polls, and an idle primary does not look like a lagging replica,
 * which `now() - pg_last_xact_replay_timestamp()` would). A replica is used only while that lag is at
 * most `maxLagMs`, it answered its last poll, and it is a standby.
 *
 * Read-your-writes. Whatever was committed before a sample is in every replica that has caught up to
 * it (a commit is written before it is acknowledged with synchronous_commit on, PostgreSQL's default,
 * so its record is below the write position that `pg_current_wal_lsn()` answers). So a person who wrote at time w sees it on any usable replica once now - maxLagMs > w: their reads
 * go to the primary from their write request until `maxLagMs` after its answer (`wrote`), then to
 * replicas again. The mark is kept in the process that served the write, and travels with the person to
 * every other process and machine as a cookie (`PRIMARY_COOKIE`, set on the answer of every successful
 * write while replicas are configured): a request that brings it unexpired reads from the primary too.
 * A client that keeps no cookies (a script) has the mark only in the process that served its write.
 *
 * Failures. A replica that does not answer its poll, or whose query fails with a connection error, is
 * marked down (that query is run again on the primary, so the request still succeeds) until a poll
 * finds it answering. A query cancelled by a conflict with recovery (40001 on a standby) is also run
 * again on the primary.
 */
export interface ReadRouting {
  /** The db for `viewerId`'s read-only queries: a usable replica's, or the primary's. No transactions. */
  reader(viewerId: string | null): Db;
  /**
   * `userId` wrote (or is writing): their reads use the primary for the next `maxLagMs`, or for `forMs`
   * (what is left of their PRIMARY_COOKIE's mark; at most `maxLagMs`).
   */
  wrote(userId: string, forMs?: number): void;
  /** Whether any replica is configured (else every read is the primary's and no cookie is needed). */
  replicated: boolean;
  /** How long a write's mark lasts. */
  maxLagMs: number;
  /** Each replica as the last poll and query left it (tests and logs). */
  status(): ReplicaStatus[];
  /** The replicas' connection pools, named `replica <host:port/database>` (for the metrics). */
  pools(): { name: string; pool: pg.Pool }[];
  /** Polls now (tests; the timer does it every pollMs). */
  poll(): Promise<void>;
  close(): Promise<void>;
}

export interface ReplicaStatus {
  /** The replica's host:port/database (no credentials). */
  name: string;
  up: boolean;
  /** How far behind the primary it is, in ms, now (Infinity before it has caught up to any sample). */
  lagMs: number;
  usable: boolean;
  /** Queries it answered, and queries it failed that went to the primary instead. */
  served: number;
  fellBack: number;
}

export interface ReplicaOptions {
  /** A replica further behind than this is skipped, and a writer reads from the primary this long. */
  maxLagMs: number;
  /**
   * How often the primary's and replicas' WAL positions are read: by default a quarter of the bound
   * (100 to 500 ms), so that a replica streaming normally, whose lag seems at most a poll interval and
   * the grace, stays well within the bound when the event loop is busy and the timer late.
   */
  pollMs?: number;
  /** How long after sampling the primary the replicas are asked (see REPLAY_GRACE_MS). */
  graceMs?: number;
  /** Where state changes are reported (the app's logger). */
  log?: { warn(object: object, message: string): void; info(object: object, message: string): void };
  now?: () => number;
}

interface Replica {
  name: string;
  pool: pg.Pool;
  db: Db;
  up: boolean;
  standby: boolean;
  /** The time of the newest primary sample this replica has replayed past. */
  caughtUpAt: number;
  inFlight: number;
  served: number;
  fellBack: number;
}

/** A WAL position as a number of bytes (pg_lsn minus 0/0), which BigInt compares exactly. */
const LSN_BYTES = (expression: string) => `pg_wal_lsn_diff(${expression}, '0/0')::text`;
const PRIMARY_POSITION = `select ${LSN_BYTES('pg_current_wal_lsn()')} as lsn`;
const REPLICA_POSITION = `select pg_is_in_recovery() as standby, ${LSN_BYTES("coalesce(pg_last_wal_replay_lsn(), '0/0')")} as lsn`;
/**
 * The replicas are asked where they are this long after the primary's sample: a replica streaming
 * normally (a few ms behind) has replayed past it by then, and is found caught up to it. Asked at once,
 * it would just miss it under a steady flow of writes and seem a whole poll interval behind.
 */
const REPLAY_GRACE_MS = 25;
/** A replica that takes longer than this to say where it is counts as down for this poll. */
const POLL_TIMEOUT_MS = 2000;

/**
 * The cookie that carries a person's "read from the primary until" mark (ms since the epoch, so machines
 * need roughly synchronised clocks, as TLS and tokens do anyway) from the
 * process that served their write to whichever serves their next read. It only ever sends the bearer's
 * own reads to the primary, so a forged one costs nothing but that; its time is capped at `maxLagMs` ahead.
 */
export const PRIMARY_COOKIE = 'sa_primary_until';

const PRIMARY_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${PRIMARY_COOKIE}=(\\d{1,15})\\s*(?:;|$)`);

/** The Set-Cookie value of a write's answer: valid for the bound, for the API only, never read by scripts. */
export function primaryCookie(until: number, maxLagMs: number, secure: boolean): string {
  const seconds = Math.ceil(maxLagMs / 1000) + 1;
  return `${PRIMARY_COOKIE}=${until}; Max-Age=${seconds}; Path=/api; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The mark a request's Cookie header carries, if any. */
export function primaryUntilOf(cookieHeader: string | undefined): number | undefined {
  if (!cookieHeader) return undefined;
  const match = PRIMARY_COOKIE_VALUE.exec(cookieHeader);
  return match ? Number(match[1]) : undefined;
}

/** The same as the primary's db for every viewer: no replicas (PGlite, or none configured). */
export function primaryOnly(db: Db): ReadRouting {
  return {
    reader: () => db,
    wrote: () => {},
    replicated: false,
    maxLagMs: 0,
    status: () => [],
    pools: () => [],
    poll: async () => {},
    close: async () => {},
  };
}

/** A connection string's host:port/database, for logs (never its password). */
export function replicaName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Opens a pool per replica URL and starts polling. A replica that cannot be reached at start is not an
 * error: it is skipped until a poll finds it (the primary serves every read meanwhile).
 */
export async function openReplicas(primary: Db, urls: string[], options: ReplicaOptions): Promise<ReadRouting> {
  if (urls.length === 0) return primaryOnly(primary);
  const primaryPool = poolOf(primary);
  if (!primaryPool) throw new Error('Read replicas need a PostgreSQL primary (DATABASE_URL).');
  const { maxLagMs, graceMs = REPLAY_GRACE_MS, log } = options;
  const pollMs = options.pollMs ?? Math.min(500, Math.max(100, Math.round(maxLagMs / 4)));
  const now = options.now ?? (() => performance.now());
  const samples: { at: number; lsn: bigint }[] = [];
  const writers = new Map<string, number>();
  /** Replicas whose poll has not answered yet (a silent host holds one up to POLL_TIMEOUT_MS). */
  const checking = new Set<Replica>();
  let turn = 0;
  let stopped = false;

  const replicas: Replica[] = urls.map((url) => {
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 2000 });
    // As the primary's (db/client.ts): a lost server is the next query's error, never the process's.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const replica: Replica = {
      name: replicaName(url),
      pool,
      db: undefined as unknown as Db,
      // Up until a poll finds otherwise, so that one away at start is reported (it is not usable
      // before it has caught up to a sample anyway).
      up: true,
      standby: false,
      caughtUpAt: -Infinity,
      inFlight: 0,
      served: 0,
      fellBack: 0,
    };
    replica.db = readOnlyDb(replica, primaryPool, (error) => markDown(replica, error));
    return replica;
  });

  const lagOf = (replica: Replica) => now() - replica.caughtUpAt;
  const usable = (replica: Replica) => replica.up && replica.standby && lagOf(replica) <= maxLagMs;

  function markDown(replica: Replica, error: unknown) {
    if (!replica.up || stopped) return;
    replica.up = false;
    log?.warn(
      { replica: replica.name, err: error instanceof Error ? error.message : String(error) },
      'read replica unreachable: its reads go to the primary until it answers again',
    );
  }

  async function checkReplica(replica: Replica) {
    try {
      const { rows } = await withTimeout(
        replica.pool.query<{ standby: boolean; lsn: string }>(REPLICA_POSITION),
        POLL_TIMEOUT_MS,
      );
      const { standby, lsn } = rows[0]!;
      if (!standby && replica.standby !== standby) {
        log?.warn({ replica: replica.name }, 'read replica is not a standby (promoted?): it is skipped');
      }
      replica.standby = standby;
      const replayed = BigInt(lsn);
      for (let i = samples.length - 1; i >= 0; i -= 1) {
        if (samples[i]!.lsn <= replayed) {
          replica.caughtUpAt = Math.max(replica.caughtUpAt, samples[i]!.at);
          break;
        }
      }
      if (!replica.up) log?.info({ replica: replica.name }, 'read replica answering');
      replica.up = true;
    } catch (error) {
      markDown(replica, error);
    }
  }

  async function poll() {
    const at = now();
    try {
      const { rows } = await withTimeout(primaryPool!.query<{ lsn: string }>(PRIMARY_POSITION), POLL_TIMEOUT_MS);
      samples.push({ at, lsn: BigInt(rows[0]!.lsn) });
    } catch {
      // The primary is away: no new sample, so every replica's lag grows past the bound and reads go to
      // the primary, which answers them with its own 503 until it is back.
    }
    // Only samples within the bound can make a replica usable; the newest one older than that is kept
    // so a replica between two polls still finds where it is.
    while (samples.length > 1 && samples[1]!.at < at - maxLagMs) samples.shift();
    await new Promise((resolve) => setTimeout(resolve, graceMs));
    const checks = replicas
      .filter((replica) => !checking.has(replica))
      .map((replica) => {
        checking.add(replica);
        return checkReplica(replica).finally(() => checking.delete(replica));
      });
    // A replica slow to answer (a host that went silent) must not hold back the others' next sample, or
    // they would all seem to lag: it is asked again once its check has answered or timed out.
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(checks),
      new Promise((resolve) => {
        waited = setTimeout(resolve, pollMs);
      }),
    ]);
    clearTimeout(waited);
    for (const [userId, until] of writers) if (until < at) writers.delete(userId);
  }

  await poll();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      void poll().finally(() => {
        if (!stopped) schedule();
      });
    }, pollMs);
    timer.unref();
  };
  schedule();

  return {
    reader(viewerId) {
      if (viewerId !== null) {
        const until = writers.get(viewerId);
        if (until !== undefined && until >= now()) return primary;
      }
      // The least busy usable replica; among equals, each in turn.
      let chosen: Replica | undefined;
      turn = (turn + 1) % replicas.length;
      for (let i = 0; i < replicas.length; i += 1) {
        const replica = replicas[(turn + i) % replicas.length]!;
        if (usable(replica) && (!chosen || replica.inFlight < chosen.inFlight)) chosen = replica;
      }
      return chosen?.db ?? primary;
    },
    wrote(userId, forMs = maxLagMs) {
      if (forMs <= 0) return;
      const end = now() + Math.min(forMs, maxLagMs);
      if (end > (writers.get(userId) ?? 0)) writers.set(userId, end);
    },
    replicated: replicas.length > 0,
    maxLagMs,
    status: () =>
      replicas.map((replica) => ({
        name: replica.name,
        up: replica.up,
        lagMs: lagOf(replica),
        usable: usable(replica),
        served: replica.served,
        fellBack: replica.fellBack,
      })),
    pools: () => replicas.map((replica) => ({ name: `replica ${replica.name}`, pool: replica.pool })),
    poll,
    async close() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all(replicas.map((replica) => replica.pool.end().catch(() => {})));
    },
  };
}

/**
 * Conflict with recovery: the standby cancelled the query to replay WAL (40001, or 40P01 when it waited
 * on the replay's locks); the primary has no such conflict.
 */
const isRecoveryConflict = (error: unknown) => {
  const code = (error as { code?: string } | undefined)?.code;
  return code === '40001' || code === '40P01';
};

/**
 * A replica's Drizzle db: each query goes to the replica's pool, and one that fails because the
 * replica is unreachable (or cancelled by recovery) is run again on the primary. It cannot run a
 * transaction: those are writes, or reads that must see one snapshot of the primary.
 */
function readOnlyDb(replica: Replica, primaryPool: QueryPool, down: (error: unknown) => void): Db {
  const pool: QueryPool = {
    async query(config: pg.QueryConfig, values?: unknown[]) {
      replica.inFlight += 1;
      try {
        const result = await replica.pool.query(config, values);
        replica.served += 1;
        return result;
      } catch (error) {
        const unreachable = isDatabaseUnavailable(error);
        if (!unreachable && !isRecoveryConflict(error)) throw error;
        if (unreachable) down(error);
        replica.fellBack += 1;
        return primaryPool.query(config, values);
      } finally {
        replica.inFlight -= 1;
      }
    },
  } as QueryPool;
  const db = drizzlePg(pool as unknown as pg.Pool, { schema }) as unknown as Db;
  db.transaction = () => {
    throw new Error('A replica reader cannot run a transaction: use the primary db.');
  };
  registerPool(db, pool);
  return db;
}
