import { performance } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type pg from 'pg';
import { HttpError } from './http-error.js';
import { RATE_LIMITS, type RateLimit, type RateLimiter } from './rate-limiter.js';

/**
 * The operators' metrics (issue 25), in Prometheus' text format. Each process keeps its own: with several
 * workers or machines, each is scraped (or aggregated) on its own.
 *
 * The process's own (CPU, memory, garbage collection, event-loop lag) are collected once per process, in a
 * registry of their own: tests build many apps in one process, and each app's counters start at zero.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    labelWorker(processRegistry);
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * With WORKERS, the worker's slot (1..n, set by workers.ts) labels every series: a scrape of the shared port
 * is answered by whichever worker takes the connection, and without the label one worker's counters
 * would follow another's in the same series, which Prometheus reads as resets.
 */
function labelWorker(registry: Registry) {
  const slot = process.env.SHARE_ARTS_WORKER_SLOT;
  if (slot) registry.setDefaultLabels({ worker: slot });
}

/** What the gauges read when scraped; filled in by app.ts once the parts they read exist. */
export interface MetricSources {
  /** The database's connection pools, by name (none for the embedded database). */
  pools?: () => { name: string; pool: pg.Pool }[];
  /** Live sockets open now. */
  liveSockets?: () => number;
  /** Pictures being processed and waiting to be. */
  processing?: () => { active: number; queued: number };
  /** The background jobs by kind (issue 37): read from the database at each scrape. */
  jobs?: () => Promise<
    { kind: string; queued: number; running: number; failed: number; oldestWaitingSeconds: number }[]
  >;
}

export type Metrics = ReturnType<typeof createMetrics>;

const PREFIX = 'sharearts_';

export function createMetrics() {
  const registry = new Registry();
  labelWorker(registry);
  const sources: MetricSources = {};

  // Route is the pattern a route was registered with (`/api/posts/:id`), never the URL: one series per
  // route, method and status, however many posts there are. Answers no route matched are `unmatched`.
  const requests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time from a request arriving to its answer being sent, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const refusals = new Counter({
    name: `${PREFIX}rate_limit_refusals_total`,
    help:
      'Requests answered 429, by the limit that refused them (the names in lib/rate-limiter.ts; "other" for the ' +
      'failure guards of log-in, two-factor and password change, and the picture queue) and route pattern.',
    labelNames: ['limit', 'route'] as const,
    registers: [registry],
  });
  const queryTimes = new Histogram({
    name: `${PREFIX}db_query_duration_seconds`,
    help: 'Time of each database query on PostgreSQL, from the driver sending it to its answer, by pool.',
    labelNames: ['pool'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const pictureTimes = new Histogram({
    name: `${PREFIX}picture_processing_seconds`,
    help: 'Time to process one uploaded picture (decode, variants, encode), not counting its wait in line.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32],
    registers: [registry],
  });

  const poolGauge = (name: string, help: string, read: (pool: pg.Pool) => number) =>
    new Gauge({
      name: `${PREFIX}db_pool_${name}`,
      help,
      labelNames: ['pool'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const { name: pool, pool: instance } of sources.pools?.() ?? []) {
          watchQueries(pool, instance);
          this.set({ pool }, read(instance));
        }
      },
    });
  poolGauge('connections', 'Connections the pool holds (idle and in use).', (pool) => pool.totalCount);
  poolGauge('idle_connections', 'Connections of the pool waiting for a query.', (pool) => pool.idleCount);
  poolGauge('waiting_requests', 'Queries waiting for a connection of the pool.', (pool) => pool.waitingCount);
  new Gauge({
    name: `${PREFIX}live_sockets`,
    help: 'Live-stream sockets open now.',
    registers: [registry],
    collect() {
      this.set(sources.liveSockets?.() ?? 0);
    },
  });
  new Gauge({
    name: `${PREFIX}picture_processing_jobs`,
    help: 'Pictures being processed (state "running") and waiting in line to be ("queued").',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = sources.processing?.() ?? { active: 0, queued: 0 };
      this.set({ state: 'running' }, stats.active);
      this.set({ state: 'queued' }, stats.queued);
    },
  });

  // Both job gauges come from one read per scrape (the two collects run in the same scrape).
  let jobCounts: { at: number; read: ReturnType<NonNullable<MetricSources['jobs']>> } | undefined;
  const readJobs = () => {
    if (!sources.jobs) return Promise.resolve([]);
    if (!jobCounts || Date.now() - jobCounts.at > 1000) jobCounts = { at: Date.now(), read: sources.jobs() };
    // A scrape while the database is away shows no job series rather than failing whole.
    return jobCounts.read.catch(() => []);
  };
  new Gauge({
    name: `${PREFIX}jobs`,
    help: 'Background jobs by kind and state: "queued" (waiting, retries included), "running", "failed" (out of tries, kept 14 days).',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { kind, queued, running, failed } of await readJobs()) {
        this.set({ kind, state: 'queued' }, queued);
        this.set({ kind, state: 'running' }, running);
        this.set({ kind, state: 'failed' }, failed);
      }
    },
  });
  new Gauge({
    name: `${PREFIX}jobs_oldest_waiting_seconds`,
    help: 'How long the oldest background job of each kind that is ready to run has waited (0 when none waits).',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { kind, oldestWaitingSeconds } of await readJobs()) this.set({ kind }, oldestWaitingSeconds);
    },
  });

  // A series' child looked up once: prom-client hashes the label values on every labels() call.
  const children = new Map<
    string,
    { count: ReturnType<typeof requests.labels>; time: ReturnType<typeof durations.labels> }
  >();
  const watchedPools = new WeakSet<pg.Pool>();

  /** Times every query of `pool`: each client is wrapped the first time the pool hands it out. */
  function watchQueries(name: string, pool: pg.Pool) {
    if (watchedPools.has(pool)) return;
    watchedPools.add(pool);
    const observe = queryTimes.labels(name);
    const wrapped = new WeakSet<pg.PoolClient>();
    pool.on('acquire', (client) => {
      if (wrapped.has(client)) return;
      wrapped.add(client);
      timeQueries(client, (seconds) => observe.observe(seconds));
    });
  }

  return {
    registry,
    /** Sets what the gauges read; the pools' queries are timed from now on. */
    watch(more: MetricSources) {
      Object.assign(sources, more);
      for (const { name, pool } of sources.pools?.() ?? []) watchQueries(name, pool);
    },
    request(method: string, route: string, status: number, seconds: number) {
      const key = `${method} ${status} ${route}`;
      let child = children.get(key);
      if (!child) {
        const labels = [method, route, String(status)] as const;
        child = { count: requests.labels(...labels), time: durations.labels(...labels) };
        children.set(key, child);
      }
      child.count.inc();
      child.time.observe(seconds);
    },
    refused(limit: string, route: string) {
      refusals.labels(limit, route).inc();
    },
    pictureProcessed(seconds: number) {
      pictureTimes.observe(seconds);
    },
    contentType: registry.contentType,
    /** The scrape: the process's metrics, then the app's. */
    async text(): Promise<string> {
      const [own, process] = await Promise.all([registry.metrics(), processMetrics().metrics()]);
      return `${process}\n${own}`;
    },
  };
}

/**
 * Calls `observe` with the seconds each of `client`'s queries takes, in both of the forms pg takes (a
 * callback, which the pool's own `query` uses, or a promise). A streamed query (a cursor) is not timed.
 */
function timeQueries(client: pg.PoolClient, observe: (seconds: number) => void) {
  const query = client.query as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as { submit?: unknown } | undefined;
    if (first && typeof first.submit === 'function') return query.apply(this, args);
    const start = performance.now();
    const done = () => observe((performance.now() - start) / 1000);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = function (this: unknown, ...results: unknown[]) {
        done();
        return (callback as (...results: unknown[]) => unknown).apply(this, results);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result instanceof Promise) result.then(done, done);
    return result;
  };
}

/** RATE_LIMITS' names, by the limit object a hit passes. */
const LIMIT_NAMES = new Map<RateLimit, string>(Object.entries(RATE_LIMITS).map(([name, limit]) => [limit, name]));
/** The limit that refused, by the 429 it threw; read by the metrics plugin's onError hook. */
export const refusingLimit = new WeakMap<object, string>();

/**
 * Marks every 429 that `limiter`'s `hit` throws with the limit's name (or its key's prefix, for a limit that
 * is not one of RATE_LIMITS), so the refusal is counted under it. It changes `limiter` in place: every part
 * of the app already holds it.
 */
export function namingRefusals(limiter: RateLimiter): void {
  const hit = limiter.hit.bind(limiter);
  const mark = (error: unknown, key: string, limit: RateLimit) => {
    if (error instanceof HttpError && error.statusCode === 429) {
      refusingLimit.set(error, LIMIT_NAMES.get(limit) ?? key.split(':')[0]!);
    }
    return error;
  };
  limiter.hit = (key, limit) => {
    let result: unknown;
    try {
      result = hit(key, limit);
    } catch (error) {
      throw mark(error, key, limit);
    }
    // A limiter that counts elsewhere (Redis) answers a promise.
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        throw mark(error, key, limit);
      }) as unknown as ReturnType<RateLimiter['hit']>;
    }
    return result as ReturnType<RateLimiter['hit']>;
  };
}
