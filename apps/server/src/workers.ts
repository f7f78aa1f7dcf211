import cluster, { type Worker } from 'node:cluster';

/**
 * WORKERS=n (issue 25): the primary process of `npm start` forks n server processes that share the port
 * (node:cluster hands each new connection to the next worker in turn), replaces one that dies, and on
 * SIGTERM or SIGINT drains them all before it exits 0.
 *
 * What runs once and what runs in every worker:
 * - once, in the primary before any worker starts (server.ts): the migrations, the first start's sample
 *   data, and the JWT secret kept under DATA_DIR, which the workers then read;
 * - in each worker, safe to repeat: ADMIN_USERNAME's grant (an idempotent upsert), the live hub and
 *   caches (each process follows every write through PostgreSQL's LISTEN/NOTIFY), and a worker of the
 *   background job queue (src/jobs, issue 37): the jobs themselves (mail, the hourly media sweeps, the
 *   fediverse's activities in and out) are in the database, each claimed by one worker of one machine, and a
 *   periodic one is created once per period for the whole cluster. Every worker hears a work's events and
 *   handles them for the fediverse: one statement on `federated_posts` lets only one of them queue the
 *   activity (modules/federation/federation.deliveries.ts).
 */

/** A worker that lived this long was healthy: its death restarts it at once. */
const HEALTHY_AFTER_MS = 10_000;
/** Back-off of a worker that keeps dying soon after it starts: 0.5 s, 1 s, 2 s… up to 30 s. */
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;
/** Workers still running this long after SIGTERM are killed (each waits up to 10 s for its requests). */
const DRAIN_MS = 20_000;
/**
 * Before any worker has listened, this many failed starts in a row of one worker mean none can start
 * (the port is taken, the database refuses): the primary stops and exits 1, as a single process would,
 * rather than retrying for ever where a service manager cannot see it.
 */
const FAILED_STARTS_BEFORE_GIVING_UP = 5;

export interface WorkersLog {
  info(message: string): void;
  warn(message: string): void;
}

/** Env of a worker: its slot (1..n), so its log lines say which one it is. */
export const WORKER_SLOT = 'SHARE_ARTS_WORKER_SLOT';

export function runWorkers(count: number, log: WorkersLog): void {
  let stopping = false;
  let listened = false;
  let exitCode = 0;
  const slots = new Map<Worker, { slot: number; started: number }>();
  const failures = new Map<number, number>();
  const pending = new Set<NodeJS.Timeout>();

  const fork = (slot: number) => {
    const worker = cluster.fork({ [WORKER_SLOT]: String(slot) });
    slots.set(worker, { slot, started: Date.now() });
  };

  cluster.on('listening', () => (listened = true));
  cluster.on('exit', (worker, code, signal) => {
    const entry = slots.get(worker);
    slots.delete(worker);
    if (stopping) {
      if (slots.size === 0) {
        log.info('every worker has stopped');
        process.exit(exitCode);
      }
      return;
    }
    if (!entry) return;
    const lived = Date.now() - entry.started;
    const failed = lived < HEALTHY_AFTER_MS ? (failures.get(entry.slot) ?? 0) + 1 : 0;
    failures.set(entry.slot, failed);
    if (!listened && failed >= FAILED_STARTS_BEFORE_GIVING_UP) {
      log.warn(`worker ${entry.slot} failed to start ${failed} times in a row and none has started: stopping`);
      exitCode = 1;
      stop('giving up');
      return;
    }
    const delay = failed === 0 ? 0 : Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** (failed - 1));
    log.warn(
      `worker ${entry.slot} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}) after ${Math.round(lived / 1000)} s; ` +
        `another starts ${delay === 0 ? 'now' : `in ${delay / 1000} s`}`,
    );
    const timer = setTimeout(() => {
      pending.delete(timer);
      if (!stopping) fork(entry.slot);
    }, delay);
    pending.add(timer);
  });

  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${reason}: draining ${slots.size} worker${slots.size === 1 ? '' : 's'}`);
    for (const timer of pending) clearTimeout(timer);
    if (slots.size === 0) process.exit(exitCode);
    // Each worker closes its server, lets its requests finish and closes its database (server.ts).
    for (const worker of slots.keys()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      log.warn(`workers still running after ${DRAIN_MS / 1000} s are killed`);
      for (const worker of slots.keys()) worker.process.kill('SIGKILL');
    }, DRAIN_MS).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  for (let slot = 1; slot <= count; slot += 1) fork(slot);
  log.info(`started ${count} workers`);
}
