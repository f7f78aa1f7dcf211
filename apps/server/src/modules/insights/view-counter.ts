import { createHash, randomBytes } from 'node:crypto';
import type { ViewSource } from '@share-arts/contract';
import { Redis } from 'ioredis';
import type { Db } from '../../db/client.js';
import { isUuid } from '../../lib/ids.js';
import { knownFediverseHosts, upsertViewBatch, type ViewBatch } from './insights.sql.js';

/**
 * Views counted without slowing the pages (issue 42). A beacon's view is decided and gathered in this process's
 * memory: no database statement while the page waits. Every FLUSH_EVERY_MS (and when the server closes) the gathered
 * views are added to the per-day count rows by one upsert statement; a batch lost to a crash (at most those 10 s) is
 * accepted.
 *
 * Uniqueness, once per person or visitor per work (or profile) per day (UTC): the key is a SHA-256 of a salt made at random
 * for each day, never written to the database, and the viewer. The viewer is the account when signed in, else
 * the client's address (an IPv6 client by its /64) and user agent. With REDIS_URL the salt and the keys seen are in
 * Redis (`SET … NX` expiring at the day's end, so every process agrees); else in a bounded set in memory, forgotten at
 * the day's end. Nothing the gathered batch holds (work, day, source, the referring host, the viewer's account id to
 * leave out the artist's own views) outlives the upsert; the rows keep counts only.
 */

export const FLUSH_EVERY_MS = 10_000;
/**
 * Keys remembered per day in memory (without Redis): past it the older half are forgotten (a view may count twice).
 */
export const MEMORY_SEEN_MAX = 500_000;
/** Distinct gathered rows past which a batch is written at once rather than at the next tick. */
const PENDING_MAX = 50_000;
/** A Redis command waits at most this long; then the view is decided in memory instead. */
const REDIS_TIMEOUT_MS = 300;

/** User agents of crawlers, link previews and scripts: their views are not counted. */
const BOT =
  /bot|crawl|spider|slurp|archiver|facebookexternalhit|embedly|preview|monitor|curl|wget|python|java\/|go-http|okhttp|axios|node-fetch|undici|libwww|httpclient|scrapy|lighthouse/i;

export const isBot = (userAgent: string | undefined): boolean => !userAgent?.trim() || BOT.test(userAgent);

export interface View {
  kind: 'post' | 'profile';
  /** The work's id, or the profile's username. */
  subject: string;
  /** The signed-in viewer, else null. */
  viewerId: string | null;
  /** The client's address key (lib/client-address.ts) and user agent: a visitor's identity for the day, hashed. */
  address: string;
  userAgent: string | undefined;
  source: ViewSource;
  host: string;
}

export interface ViewCounter {
  /** Off: the beacon answers without counting (the benchmark's "counting off"). */
  enabled: boolean;
  /** The clock the day is read from (tests move it). */
  now: () => number;
  /** Decides whether the view counts and gathers it; answers whether it was new for the day. */
  record(view: View): Promise<boolean>;
  /** Writes what is gathered (one statement); answers the views written. */
  flush(): Promise<number>;
  /** Where uniqueness is kept. */
  store(): 'memory' | 'redis';
  close(): Promise<void>;
}

/** The UTC day of a time, 'YYYY-MM-DD', and the time it ends. */
export function dayOf(time: number): { day: string; endsAt: number } {
  const day = new Date(time).toISOString().slice(0, 10);
  return { day, endsAt: Date.parse(`${day}T00:00:00Z`) + 86_400_000 };
}

interface Log {
  warn(details: object, message: string): void;
}

export function createViewCounter(options: {
  db: Db;
  log: Log;
  redisUrl?: string | undefined;
  redisKeyPrefix?: string | undefined;
  /** How long a Redis command may take before the view is decided in memory (REDIS_TIMEOUT_MS by default). */
  redisTimeoutMs?: number | undefined;
  flushEveryMs?: number;
}): ViewCounter {
  const { db, log } = options;
  const prefix = `${options.redisKeyPrefix ?? 'share-arts:'}views:`;
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: options.redisTimeoutMs ?? REDIS_TIMEOUT_MS,
        connectTimeout: 2000,
        retryStrategy: (times) => Math.min(times * 200, 2000),
      })
    : undefined;
  let redisWarned = false;
  const redisFailed = (err: unknown) => {
    if (!redisWarned) log.warn({ err }, 'Redis did not answer: views are told apart in this process until it does');
    redisWarned = true;
  };
  redis?.on('error', redisFailed);
  redis?.on('ready', () => (redisWarned = false));
  const connecting = redis?.connect().catch(redisFailed);

  // The day's salt and the keys seen, in memory (and the salt's copy from Redis, fetched once a day).
  let today = '';
  let salt = randomBytes(32);
  // The keys seen today, in two generations of at most half the bound each: when the newer is full, the older is
  // forgotten at once (a Set's oldest entry cannot be dropped one at a time in constant time).
  let seen = new Set<string>();
  let older = new Set<string>();
  let sharedSalt: { day: string; salt: Buffer } | undefined;

  function memoryDay(day: string) {
    if (day !== today) {
      today = day;
      salt = randomBytes(32);
      seen = new Set();
      older = new Set();
    }
  }

  async function saltFor(day: string, endsAt: number): Promise<Buffer | undefined> {
    if (!redis || redis.status !== 'ready') return undefined;
    if (sharedSalt?.day === day) return sharedSalt.salt;
    const key = `${prefix}salt:${day}`;
    await redis.set(key, randomBytes(32).toString('base64'), 'PXAT', endsAt + 3_600_000, 'NX');
    const stored = await redis.get(key);
    if (!stored) return undefined;
    sharedSalt = { day, salt: Buffer.from(stored, 'base64') };
    return sharedSalt.salt;
  }

  // SHA-256 of the day's salt then the viewer: the salt is secret, random and used one day only, so the key cannot be
  // reversed or linked across days (an HMAC's key setup on every view would only cost more).
  const keyOf = (key: Buffer, view: View) =>
    createHash('sha256')
      .update(key)
      .update(
        `${view.kind}\n${view.subject}\n${view.viewerId ? `u:${view.viewerId}` : `a:${view.address}\n${view.userAgent}`}`,
      )
      .digest('base64url')
      .slice(0, 22);

  /** Whether the view is the viewer's first of the subject today. */
  async function firstToday(view: View, day: string, endsAt: number): Promise<boolean> {
    if (redis) {
      try {
        await connecting;
        const shared = await saltFor(day, endsAt);
        if (shared) {
          const answer = await redis.set(`${prefix}seen:${day}:${keyOf(shared, view)}`, '1', 'PXAT', endsAt, 'NX');
          return answer === 'OK';
        }
      } catch (err) {
        redisFailed(err);
      }
    }
    memoryDay(day);
    const key = keyOf(salt, view);
    if (seen.has(key) || older.has(key)) return false;
    if (seen.size >= MEMORY_SEEN_MAX / 2) [older, seen] = [seen, new Set()];
    seen.add(key);
    return true;
  }

  // The batch being gathered: one entry per row it adds to (and per viewer, whose own works are left out).
  let pending = new Map<string, number>();
  let writing: Promise<number> = Promise.resolve(0);

  async function write(batch: Map<string, number>): Promise<number> {
    if (batch.size === 0) return 0;
    const rows = [...batch].map(([key, views]) => {
      const [kind, subject, day, source, host, viewer] = key.split('\t') as [
        string,
        string,
        string,
        ViewSource,
        string,
        string,
      ];
      return { kind, subject, day, source, host, viewer: viewer || null, views };
    });
    try {
      const hosts = [...new Set(rows.filter((row) => row.host).map((row) => row.host))];
      const fediverse = await fediverseHosts(hosts);
      const posts: ViewBatch = emptyBatch();
      const profiles: ViewBatch = emptyBatch();
      let total = 0;
      for (const row of rows) {
        const into = row.kind === 'post' ? posts : profiles;
        into.subjects.push(row.subject);
        into.days.push(row.day);
        into.sources.push(row.source === 'external' && fediverse.has(row.host) ? 'federated' : row.source);
        into.hosts.push(row.host);
        into.viewers.push(row.viewer);
        into.views.push(row.views);
        total += row.views;
      }
      await upsertViewBatch(db, posts, profiles);
      return total;
    } catch (err) {
      log.warn({ err, views: rows.length }, 'a batch of views could not be written: those views are not counted');
      return 0;
    }
  }

  // Whether a referring host is a server of the fediverse we know (a remote person's address is on it), for a day.
  const hostKinds = new Map<string, { fediverse: boolean; until: number }>();
  async function fediverseHosts(hosts: string[]): Promise<Set<string>> {
    const time = Date.now();
    const unknown = hosts.filter((host) => (hostKinds.get(host)?.until ?? 0) <= time);
    if (unknown.length > 0) {
      const known = new Set(await knownFediverseHosts(db, unknown));
      if (hostKinds.size > 10_000) hostKinds.clear();
      for (const host of unknown) hostKinds.set(host, { fediverse: known.has(host), until: time + 86_400_000 });
    }
    return new Set(hosts.filter((host) => hostKinds.get(host)?.fediverse));
  }

  const counter: ViewCounter = {
    enabled: true,
    now: Date.now,
    store: () => (redis ? 'redis' : 'memory'),
    async record(view) {
      if (view.kind === 'post' && !isUuid(view.subject)) return false;
      const { day, endsAt } = dayOf(counter.now());
      if (!(await firstToday(view, day, endsAt))) return false;
      const key = [view.kind, view.subject, day, view.source, view.host, view.viewerId ?? ''].join('\t');
      pending.set(key, (pending.get(key) ?? 0) + 1);
      if (pending.size >= PENDING_MAX) void counter.flush();
      return true;
    },
    flush() {
      const batch = pending;
      pending = new Map();
      // One batch at a time, in order.
      writing = writing.then(() => write(batch));
      return writing;
    },
    async close() {
      clearInterval(timer);
      await counter.flush();
      if (redis) {
        await connecting;
        await redis.quit().catch(() => redis.disconnect());
      }
    },
  };
  const timer = setInterval(() => void counter.flush(), options.flushEveryMs ?? FLUSH_EVERY_MS);
  timer.unref();
  return counter;
}

const emptyBatch = (): ViewBatch => ({ subjects: [], days: [], sources: [], hosts: [], viewers: [], views: [] });
