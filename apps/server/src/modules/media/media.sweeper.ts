import { opendir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/client.js';
import { deleteUnattachedMedia, selectMediaIdsAmong } from './media.sql.js';
import { filesOf, type MediaLog, type MediaStorage } from './media.storage.js';

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
// `<id>-original.png`, `<id>-1080.jpg`, `<id>-1080-p3.avif`, `<id>-640-animated.webp`.
const MEDIA_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-[a-z0-9]+(?:-[a-z0-9]+)*\.[a-z]+$/;
const PROBE_FILE = /^\.probe-[0-9a-f-]{36}$/;

interface SweepDeps {
  db: Db;
  mediaDir: string;
  storage: MediaStorage;
  log: MediaLog;
  now: () => number;
}

/**
 * Deletes uploads attached to nothing for a day (rows, then files), and files of the media folder whose
 * row is gone (a failed or interrupted delete is retried here: the files themselves are the record).
 */
export async function sweepMedia({ db, mediaDir, storage, log, now }: SweepDeps) {
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
  const sweepBatch = async (names: string[]) => {
    const ids = [...new Set(names.map((name) => MEDIA_FILE.exec(name)![1]!))];
    const kept = new Set(await selectMediaIdsAmong(db, ids));
    const rowless = names.filter((name) => !kept.has(MEDIA_FILE.exec(name)![1]!));
    const old: string[] = [];
    for (const name of rowless) {
      const info = await stat(path.join(mediaDir, name)).catch(() => undefined);
      if (info && info.mtimeMs < now() - ROWLESS_FILE_GRACE_MS) old.push(name);
    }
    await storage.remove(old);
    files += old.length;
  };
  let batch: string[] = [];
  const folder = await opendir(mediaDir).catch(() => undefined);
  for await (const entry of folder ?? []) {
    if (PROBE_FILE.test(entry.name)) {
      // A probe left behind by a crash: removed like any rowless file.
      const info = await stat(path.join(mediaDir, entry.name)).catch(() => undefined);
      if (info && info.mtimeMs < now() - ROWLESS_FILE_GRACE_MS) {
        await rm(path.join(mediaDir, entry.name), { force: true }).catch(() => {});
      }
      continue;
    }
    // Only files the server names; anything else an operator put there is left alone.
    if (!entry.isFile() && !entry.isSymbolicLink()) continue;
    if (!MEDIA_FILE.test(entry.name)) continue;
    batch.push(entry.name);
    if (batch.length >= BATCH) {
      await sweepBatch(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await sweepBatch(batch);
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
