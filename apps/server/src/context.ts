import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database, Db } from './db/client.js';
import type { ReadRouting } from './db/replicas.js';
import type { EventBus } from './events/bus.js';
import type { JobQueue } from './jobs/queue.js';
import type { Metrics } from './lib/metrics.js';
import type { RateLimiter } from './lib/rate-limiter.js';
import type { TokenService } from './lib/tokens.js';
import type { AuthGuards, TokenCheck } from './plugins/auth.js';

/**
 * What every module is given: the few things the modules share, built once by app.ts. Each module's wiring
 * (`wire<Module>(shared, deps)` in its `<module>.module.ts`) makes its services from it and from the other
 * modules it is handed, registers its routes, its hooks and what it stops at the end, and returns what the
 * modules wired after it use.
 *
 * `config` is typed by each wiring as the settings it reads (`ServerContext<{ publicOrigin: string | undefined }>`)
 * and app.ts hands the whole Config: config.ts imports the live and media modules' types, so a module that
 * imported Config would close a cycle. For the same reason nothing here names a module's type; a facility
 * every module may use (the durable jobs) is one more member, built in app.ts, from a folder whose own files
 * do not import this one.
 */
export interface ServerContext<Settings = object> {
  /**
   * The server: a module registers its routes here, under the prefix it answers at (`/api` for the API), and
   * its hooks (`onClose` for what it stops; the last registered stops first).
   */
  app: FastifyInstance;
  config: Settings;
  database: Database;
  /** The primary's db: every write, transaction and cache fill. */
  db: Db;
  /** Where the reads of the busiest pages go: a caught-up replica, or the primary (db/replicas.ts, issue 25). */
  reads: ReadRouting;
  /** Every process's events, after their transactions commit (events/bus.ts). */
  bus: EventBus;
  log: FastifyBaseLogger;
  /** The rate limits: in Redis with REDIS_URL, else in this process's memory (issue 25). */
  limiter: RateLimiter;
  /** Signs and reads the session tokens (JWT_SECRET). */
  tokens: TokenService;
  /** The one token check of HTTP requests, POST /api/auth/verify and the live socket. */
  tokenCheck: TokenCheck;
  /** The routes' preHandlers: requireUser and optionalUser (plugins/auth.ts). */
  guards: AuthGuards;
  /**
   * The durable background jobs (src/jobs, issue 37): a module defines its kinds of job while it is wired
   * (`jobs.define`), and queues them (`jobs.send`); they start working once the app is ready.
   */
  jobs: JobQueue;
  /** The operators' metrics (GET /api/metrics): a module adds what its gauges read with `metrics.watch`. */
  metrics: Metrics;
  /**
   * What must stop when the server begins to close, before the sockets' server does (the live hub, the event
   * bus): the last added stops first.
   */
  beforeClose(stop: () => Promise<void>): void;
}
