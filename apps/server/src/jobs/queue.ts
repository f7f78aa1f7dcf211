import { PgBoss, fromPglite, type Job, type JobResult, type JobWithMetadata } from 'pg-boss';
import type { Database } from '../db/client.js';
import {
  deleteEffectsBefore,
  insertEffect,
  selectEffect,
  selectFailedJobs,
  selectJobCounts,
  type FailedJob,
  type JobCounts,
} from './jobs.sql.js';

export type { FailedJob, JobCounts };

/**
 * Durable background jobs (issue 37): work that must outlive the request that asked for it (mail, sweeps,
 * and next federation deliveries, imports, scheduled posts), kept in the database by pg-boss, so the
 * embedded database needs nothing more and every process and machine on one PostgreSQL shares one queue.
 *
 * - A job is claimed by one worker at a time in the whole cluster (`SELECT … FOR UPDATE SKIP LOCKED`), and is
 *   active while its handler runs, which beats a heartbeat every HEARTBEAT_SECONDS / 2. A worker that dies
 *   (kill -9, a lost machine) stops beating: after HEARTBEAT_SECONDS a supervisor (any live process) fails the
 *   job over to a retry, so a restart or another worker runs it.
 * - A handler that throws is retried with exponential back-off (`retryDelaySeconds` × 2^attempt, with
 *   jitter, at most `retryDelayMaxSeconds`) up to `retryLimit` times; then the job stays `failed`, where
 *   `GET /api/admin/jobs` lists it and an admin can retry it.
 * - Handlers are idempotent by the job's id: `job.once(effect, work)` runs `work` only if this job has not
 *   already had that effect (the `job_effects` table). A job that ran but whose completion was lost runs
 *   again and skips what it did. Effects outside the database (a mail, a file) are written just after; in the
 *   moment between, a crash repeats them, so they are made the same each time (a mail's Message-ID and link
 *   come from the job's id).
 * - A periodic job (`every`, a cron line in UTC) is created once per period for the whole cluster (pg-boss's
 *   schedule: each occurrence has one singleton key), and runs on whichever process claims it.
 */

/** A job's handler is told it has stopped beating after this long without a beat (pg-boss's minimum is 10). */
export const HEARTBEAT_SECONDS = 10;

export interface JobKindOptions<Payload extends object = object> {
  /** Tries after the first before the job stays failed (default 5). */
  retryLimit?: number;
  /** The first retry's delay; each next one doubles it, with jitter (default 30 s). */
  retryDelaySeconds?: number;
  /** The longest delay between tries (default 1 hour). */
  retryDelayMaxSeconds?: number;
  /** How long one try may run before it is failed and retried (default 15 minutes). */
  expireInSeconds?: number;
  /** A cron line (UTC): one job of this kind each period, for the whole cluster. */
  every?: string;
  /** Jobs of this kind running at once in this process (default 1; one job runs once at a time anyway). */
  concurrency?: number;
  /**
   * Jobs a worker claims at once and runs one after the other (default 5): 1 for long jobs, whose claim
   * should not hold others back.
   */
  batchSize?: number;
  /**
   * What orders the jobs of a batch: given, they run at once, but those of one key one after the other in the
   * order queued (a delivery's inbox: each waits on another server, and two to one inbox keep their order).
   * Without it the batch runs one job after the other.
   */
  keyOf?: (payload: Payload) => string | undefined;
}

export interface JobContext {
  /** The job's id, the same in every try: the key of everything the handler must do only once. */
  id: string;
  /** 0 on the first try. */
  attempt: number;
  /** Aborted when this process stops or the job's claim is lost: stop soon, a retry will go on. */
  signal: AbortSignal;
  /**
   * Runs `work` unless this job already had `effect` (in an earlier try whose completion was lost), then
   * records it. An effect inside the database is better written with the record in one transaction; this
   * is for effects outside it (a mail, a file, a request to another server).
   */
  once(effect: string, work: () => Promise<void>): Promise<void>;
}

export type JobHandler<Payload> = (payload: Payload, job: JobContext) => Promise<void>;

export interface JobQueue {
  /** Declares a kind of job and its handler; before `start`. */
  define<Payload extends object>(kind: string, handler: JobHandler<Payload>, options?: JobKindOptions<Payload>): void;
  /** Queues a job (to start after `startAfterSeconds` when given); answers its id. */
  send<Payload extends object>(
    kind: string,
    payload: Payload,
    options?: { startAfterSeconds?: number },
  ): Promise<string>;
  /** Queues one job per payload, in one statement per thousand (a fan-out); each after `startAfterSeconds` when given. */
  sendMany<Payload extends object>(
    kind: string,
    payloads: Payload[],
    options?: { startAfterSeconds?: number },
  ): Promise<void>;
  /**
   * Starts working on every kind defined, in the background (it retries while the database is away); `send`
   * waits for it.
   */
  start(): void;
  /** Resolves once the queue works; rejects after `timeoutMs` (10 s by default: the database does not answer). */
  whenStarted(timeoutMs?: number): Promise<void>;
  /** Stops taking jobs and waits up to `graceSeconds` for those running (the rest are retried later). */
  stop(graceSeconds?: number): Promise<void>;
  /** Counts by kind and state, and the oldest waiting job's age (metrics, the admin's list). */
  counts(): Promise<JobCounts[]>;
  /** The newest failed jobs, which ran out of tries. */
  failed(limit: number): Promise<FailedJob[]>;
  /** Queues a failed job again (its tries start over); false when there is no failed job with that id. */
  retry(id: string): Promise<boolean>;
  /** Throws when the queue's database cannot be reached (GET /api/ready). */
  check(): Promise<void>;
}

interface Kind {
  handler: JobHandler<object>;
  options: JobKindOptions;
}

/** pg-boss keeps its tables in this schema of the app's database. */
export const JOB_SCHEMA = 'pgboss';
/** pg-boss's own tries at its start (1 s, 2 s… 30 s apart) before the set-up starts over. */
const START_ATTEMPTS = 10;
/** On the embedded database, the pause between two batches of a kind (see `burstWhenBatchFull`). */
const EMBEDDED_PAUSE_SECONDS = 1;
/**
 * On the embedded database, the jobs a worker claims at once (a kind's own batchSize wins): with the pause,
 * bench:jobs drained 5 jobs a second at 5, 26 at 25 and 110 at 100, GET /api/posts at 0.99–1.05× its rate
 * alone in each (a job's queries take turns with the pages' on the one connection; the pause leaves it free).
 */
const EMBEDDED_BATCH = 100;
/** How long `send` waits for a queue still starting. */
const SEND_WAIT_MS = 10_000;
/** Records of done effects are kept this long: longer than a job can wait for its retries. */
const EFFECTS_KEPT_DAYS = 30;

export interface JobQueueOptions {
  /** Seconds between a worker's looks for jobs when nothing woke it (default 2; 5 while notifications work). */
  pollingIntervalSeconds?: number;
  /** How often a process checks for jobs whose worker stopped beating, and expired ones (default 10 s). */
  superviseIntervalSeconds?: number;
  /** How often a process looks whether a periodic job is due (default 30 s; a period is at least a minute). */
  cronIntervalSeconds?: number;
  onError?: (error: unknown) => void;
  /** A try of a job failed (it is retried, or stays failed after its last try). */
  onJobFailed?: (failed: { kind: string; id: string; attempt: number; error: unknown }) => void;
}

/** What a failed try leaves on the job: its error's message, for the admin's list. */
const failure = (error: unknown) => ({
  message: error instanceof Error ? error.message : String(error),
  ...(error instanceof Error && error.stack ? { stack: error.stack.split('\n').slice(0, 8).join('\n') } : {}),
});

export function createJobQueue(database: Database, options: JobQueueOptions = {}): JobQueue {
  const embedded = database.kind === 'pglite';
  const boss = new PgBoss({
    ...(embedded
      ? { db: fromPglite(database.pglite!), backend: 'pglite' as const }
      : // Its own small pool: a burst of jobs never takes the connections the pages use.
        { connectionString: database.url!, max: 3, application_name: 'share-arts-jobs' }),
    schema: JOB_SCHEMA,
    useListenNotify: true,
    superviseIntervalSeconds: options.superviseIntervalSeconds ?? 10,
    monitorIntervalSeconds: options.superviseIntervalSeconds ?? 10,
    ...(options.cronIntervalSeconds
      ? {
          cronMonitorIntervalSeconds: options.cronIntervalSeconds,
          cronWorkerIntervalSeconds: options.cronIntervalSeconds,
        }
      : {}),
    registerInstance: false,
    openTelemetry: { enabled: false },
  });
  boss.on('error', (error) => options.onError?.(error));
  const kinds = new Map<string, Kind>();
  let started = false;
  let stopped = false;
  /** Settles when the queue works (or gave up because it is stopping). */
  let ready: Promise<void> | undefined;
  /** Ends the wait between two set-up tries (stop). */
  let wake = () => {};
  const working = new Set<string>();

  /** Waits for the queue to work, at most `ms`: a job cannot be queued before pg-boss's schema exists. */
  async function startedWithin(ms: number): Promise<void> {
    if (!ready) throw new Error('the job queue has not been started');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('the job queue is not available: the database does not answer')), ms);
    });
    try {
      await Promise.race([ready, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  define(
    'jobs.forget-effects',
    async () => {
      await deleteEffectsBefore(database.db, new Date(Date.now() - EFFECTS_KEPT_DAYS * 86_400_000));
    },
    { every: '17 4 * * *' },
  );

  function define<Payload extends object>(
    kind: string,
    handler: JobHandler<Payload>,
    kindOptions: JobKindOptions<Payload> = {},
  ) {
    if (started) throw new Error(`job kind ${kind} defined after the queue started`);
    if (kinds.has(kind)) throw new Error(`job kind ${kind} is defined twice`);
    kinds.set(kind, { handler: handler as JobHandler<object>, options: kindOptions as JobKindOptions });
  }

  /** Runs one job of a batch: its result, failed with the error's message when its handler throws. */
  async function runJob(handler: JobHandler<object>, job: JobWithMetadata<object>): Promise<JobResult> {
    try {
      await handler(job.data ?? {}, contextOf(job));
      return { id: job.id, status: 'completed' };
    } catch (error) {
      return { id: job.id, status: 'failed', output: failure(error) };
    }
  }

  /**
   * Runs a batch in the order queued (it comes back from the claiming UPDATE in no particular order): one job
   * after the other, or with `keyOf`, one lane per key at once.
   */
  async function runBatch(
    handler: JobHandler<object>,
    keyOf: JobKindOptions['keyOf'],
    batch: JobWithMetadata<object>[],
  ): Promise<JobResult[]> {
    const queued = [...batch].sort((a, b) => b.priority - a.priority || a.createdOn.getTime() - b.createdOn.getTime());
    const lanes = new Map<string, JobWithMetadata<object>[]>();
    for (const job of queued) {
      let key = '';
      try {
        key = keyOf ? (keyOf(job.data ?? {}) ?? job.id) : '';
      } catch {
        key = job.id;
      }
      const lane = lanes.get(key);
      if (lane) lane.push(job);
      else lanes.set(key, [job]);
    }
    const results = await Promise.all(
      [...lanes.values()].map(async (lane) => {
        const done: JobResult[] = [];
        for (const job of lane) done.push(await runJob(handler, job));
        return done;
      }),
    );
    return results.flat();
  }

  const contextOf = (job: Job<object>): JobContext => ({
    id: job.id,
    attempt: job.retryCount,
    signal: job.signal,
    async once(effect, work) {
      if (await selectEffect(database.db, job.id, effect)) return;
      await work();
      await insertEffect(database.db, job.id, effect);
    },
  });

  /** Installs pg-boss's schema, creates or updates each kind's queue and schedule, and starts its workers. */
  async function setUp(): Promise<void> {
    // Installs or migrates pg-boss's schema (under its advisory lock: several processes may start at once).
    await boss.start({ attempts: START_ATTEMPTS });
    for (const [kind, { handler, options: kindOptions }] of kinds) {
      if (working.has(kind)) continue;
      const queue = {
        retryLimit: kindOptions.retryLimit ?? 5,
        retryDelay: kindOptions.retryDelaySeconds ?? 30,
        retryBackoff: true,
        retryDelayMax: kindOptions.retryDelayMaxSeconds ?? 3600,
        expireInSeconds: kindOptions.expireInSeconds ?? 900,
        heartbeatSeconds: HEARTBEAT_SECONDS,
        notify: true,
      };
      // Created by the first process to start (with its policy, which stays), brought up to date by each.
      // A periodic job waits at most once: a sweep still queued needs no second one behind it.
      if (!(await boss.getQueue(kind)))
        await boss.createQueue(kind, { ...queue, policy: kindOptions.every ? 'stately' : 'standard' });
      await boss.updateQueue(kind, queue);
      if (kindOptions.every) await boss.schedule(kind, kindOptions.every, {}, { tz: 'UTC' });
      // Jobs are claimed a few at a time: after a full batch the worker claims the next at once (pg-boss
      // waits for a notification or its next poll after a batch that was not full, or a batch of one).
      await boss.work(
        kind,
        {
          pollingIntervalSeconds: options.pollingIntervalSeconds ?? (embedded ? EMBEDDED_PAUSE_SECONDS : 2),
          // With LISTEN/NOTIFY a new job wakes the workers at once; this look is for retries coming due.
          notifyPollingIntervalSeconds: options.pollingIntervalSeconds ?? (embedded ? EMBEDDED_PAUSE_SECONDS : 5),
          batchSize: kindOptions.batchSize ?? (embedded ? EMBEDDED_BATCH : 5),
          // The embedded database is one connection, shared with the pages: a queue that drained without a
          // pause took all of it (bench:jobs: GET /api/posts answered nothing while 5,000 jobs drained). There
          // the worker pauses between batches; on PostgreSQL it claims the next full batch at once.
          burstWhenBatchFull: !embedded,
          perJobResults: true,
          includeMetadata: true,
          localConcurrency: kindOptions.concurrency ?? 1,
        },
        (batch: JobWithMetadata<object>[]) => runBatch(handler, kindOptions.keyOf, batch),
      );
      working.add(kind);
    }
  }

  return {
    define,

    async send(kind, payload, sendOptions) {
      if (!kinds.has(kind)) throw new Error(`unknown job kind ${kind}`);
      await startedWithin(SEND_WAIT_MS);
      const delay = Math.ceil(sendOptions?.startAfterSeconds ?? 0);
      const id = await boss.send(kind, payload, delay > 0 ? { startAfter: delay } : {});
      if (!id) throw new Error(`the job queue did not take a job of kind ${kind}`);
      return id;
    },

    async sendMany(kind, payloads, sendOptions) {
      if (!kinds.has(kind)) throw new Error(`unknown job kind ${kind}`);
      await startedWithin(SEND_WAIT_MS);
      const delay = Math.ceil(sendOptions?.startAfterSeconds ?? 0);
      const startAfter = delay > 0 ? new Date(Date.now() + delay * 1000) : undefined;
      for (let at = 0; at < payloads.length; at += 1000) {
        await boss.insert(
          kind,
          payloads.slice(at, at + 1000).map((data) => (startAfter ? { data, startAfter } : { data })),
        );
      }
    },

    whenStarted: (timeoutMs = SEND_WAIT_MS) => startedWithin(timeoutMs),

    start() {
      if (ready) return;
      started = true;
      // In the background: a server whose database is away at start still starts (and answers 503s), and
      // its jobs start working once the database answers.
      ready = (async () => {
        for (let attempt = 1; !stopped; attempt += 1) {
          try {
            await setUp();
            return;
          } catch (error) {
            if (stopped) return;
            options.onError?.(error);
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, Math.min(1000 * 2 ** attempt, 30_000));
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
          }
        }
      })();
    },

    async stop(graceSeconds = 10) {
      if (stopped || !started) return;
      stopped = true;
      wake();
      await boss.stop({ graceful: true, timeout: graceSeconds * 1000, close: true });
      await ready;
    },

    counts: () => selectJobCounts(database.db, JOB_SCHEMA),

    failed: (limit) => selectFailedJobs(database.db, JOB_SCHEMA, limit),

    async retry(id) {
      const [failed] = (await selectFailedJobs(database.db, JOB_SCHEMA, 1, id)) ?? [];
      if (!failed) return false;
      const result = (await boss.retry(failed.kind, id)) as { affected?: number };
      return (result.affected ?? 0) > 0;
    },

    async check() {
      if (working.size < kinds.size) throw new Error('the job queue has not started');
      if (!(await boss.isInstalled())) throw new Error('the job queue is not installed');
    },
  };
}
