import type { Db } from '../../db/client.js';
import { deleteUnattachedMedia, selectMediaIdsAmong } from './media.sql.js';
import { filesOf, MEDIA_FILE, type MediaLog, type MediaStorage } from './media.storage.js';

/** An upload attached to no post and no profile after a day is one its owner gave up on. */
export const UNATTACHED_GRACE_MS = 24 * 60 * 60 * 1000;
/**
 * A file with no row: an upload's files are written moments before its row, so one older than this
 * lost its row (a delete whose file removal failed, or a crash between the two, or a deleted account).
 */
export const ROWLESS_FILE_GRACE_MS = 10 * 60 * 1000;
/** Sweeps run hourly; the first a few minutes after start, once a first start's seeding is done. */
export const SWEEP_EVERY_MS = 60 * 60 * 1000;
const FIRST_SWEEP_AFTER_MS = 5 * 60 * 1000;

const BATCH = 500;

interface SweepDeps {
  db: Db;
  storage: MediaStorage;
  log: MediaLog;
  now: () => number;
}

/**
 * Deletes uploads attached to nothing for a day (rows, then files), and stored files (in the media folder
 * or the bucket) whose row is gone (a failed or interrupted delete or upload is retried here: the files
 * themselves are the record).
 */
export async function sweepMedia({ db, storage, log, now }: SweepDeps) {
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
  if (rows > 0 || files > 0) log.info({ rows, files }, 'swept unattached uploads and files without a row');
  return { rows, files };
}

/**
 * Runs `sweep` a few minutes after start and then hourly; the timers never keep the process alive. The
 * function returned stops them and waits for a sweep under way (it uses the database).
 */
export function scheduleSweeps(sweep: () => Promise<unknown>, log: MediaLog): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const run = () => {
    running ??= sweep()
      .catch((err: unknown) => log.warn({ err }, 'the media sweep failed; it runs again in an hour'))
      .finally(() => (running = undefined));
  };
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    run();
    interval = setInterval(run, SWEEP_EVERY_MS).unref();
  }, FIRST_SWEEP_AFTER_MS).unref();
  return async () => {
    clearTimeout(first);
    clearInterval(interval);
    await running;
  };
}
