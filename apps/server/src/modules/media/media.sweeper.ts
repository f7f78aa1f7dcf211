import type { Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import { deleteUnattachedMedia, selectMediaIdsAmong } from './media.sql.js';
import { filesOf, MEDIA_FILE, type MediaLog, type MediaStorage } from './media.storage.js';

/** An upload attached to no post, no profile and no draft after a day is one its owner gave up on. */
export const UNATTACHED_GRACE_MS = 24 * 60 * 60 * 1000;
/**
 * A file with no row: an upload's files are written moments before its row, so one older than this
 * lost its row (a delete whose file removal failed, or a crash between the two, or a deleted account).
 */
export const ROWLESS_FILE_GRACE_MS = 10 * 60 * 1000;
/**
 * Both sweeps are periodic background jobs (issue 37): once an hour for the whole cluster, whatever the
 * number of processes and machines (they were run by a timer in every process before).
 */
export const SWEEP_JOBS = {
  unattached: { kind: 'media.sweep-unattached', every: '5 * * * *' },
  rowlessFiles: { kind: 'media.sweep-files', every: '35 * * * *' },
} as const;

const BATCH = 500;

interface SweepDeps {
  db: Db;
  storage: MediaStorage;
  log: MediaLog;
  now: () => number;
}

/** Deletes uploads attached to nothing for a day (rows, then files): the orphaned-upload cleanup. */
export async function sweepUnattached({ db, storage, now }: SweepDeps): Promise<number> {
  let rows = 0;
  const cutoff = new Date(now() - UNATTACHED_GRACE_MS).toISOString();
  for (;;) {
    // Two statements: the first locks the candidates (skipping a row locked by an attach in progress,
    // whose foreign-key check holds it), the second deletes those still unattached as seen by a new
    // snapshot. One statement would judge "unattached" by the snapshot it took before its lock, so a
    // post that attached the picture and committed in between would lose it (ON DELETE SET NULL). An
    // attach that starts after the lock waits for it, then finds no row: a 404, nothing lost.
    const deleted = await deleteUnattachedMedia(db, cutoff, BATCH);
    for (const row of deleted.rows)
      await storage.remove(filesOf({ originalFile: row.original_file, variants: row.variants }));
    rows += deleted.rows.length;
    if (!deleted.full) break;
  }
  return rows;
}

/**
 * Deletes stored files (in the media folder or the bucket) whose row is gone: a failed or interrupted delete
 * or upload is retried here, the files themselves being the record.
 */
export async function sweepRowlessFiles({ db, storage, now }: SweepDeps): Promise<number> {
  let files = 0;
  for await (const batch of storage.list()) {
    const ids = [...new Set(batch.map(({ name }) => MEDIA_FILE.exec(name)![1]!))];
    const kept = new Set(await selectMediaIdsAmong(db, ids));
    const old = batch
      .filter(
        ({ name, modifiedMs }) => !kept.has(MEDIA_FILE.exec(name)![1]!) && modifiedMs < now() - ROWLESS_FILE_GRACE_MS,
      )
      .map(({ name }) => name);
    await storage.remove(old);
    files += old.length;
  }
  return files;
}

/** Both sweeps, one after the other (the service's `sweep`). */
export async function sweepMedia(deps: SweepDeps) {
  const rows = await sweepUnattached(deps);
  const files = await sweepRowlessFiles(deps);
  if (rows > 0 || files > 0) deps.log.info({ rows, files }, 'swept unattached uploads and files without a row');
  return { rows, files };
}

/** The two sweeps as periodic jobs. Both are idempotent: deleting what is already gone does nothing. */
export function defineSweepJobs(jobs: JobQueue, deps: SweepDeps): void {
  jobs.define(
    SWEEP_JOBS.unattached.kind,
    async () => {
      const rows = await sweepUnattached(deps);
      if (rows > 0) deps.log.info({ rows }, 'swept uploads attached to nothing for a day');
    },
    { every: SWEEP_JOBS.unattached.every, retryLimit: 2, retryDelaySeconds: 60, batchSize: 1 },
  );
  jobs.define(
    SWEEP_JOBS.rowlessFiles.kind,
    async () => {
      const files = await sweepRowlessFiles(deps);
      if (files > 0) deps.log.info({ files }, 'swept stored files without a row');
    },
    { every: SWEEP_JOBS.rowlessFiles.every, retryLimit: 2, retryDelaySeconds: 60, expireInSeconds: 3600, batchSize: 1 },
  );
}
