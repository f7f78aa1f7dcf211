import { randomUUID } from 'node:crypto';
import { mkdir, open, opendir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DISK_MESSAGES, diskProblem, type DiskProblem } from '../../lib/disk-errors.js';
import { HttpError } from '../../lib/http-error.js';
import { extOf, TYPE_OF_EXT } from './media.download.js';
import { MEDIA_FILE, type MediaLog, type MediaStorage, type ReadResult } from './media.storage.js';

// A probe writes a block's worth: on a full disk an empty file can still be created.
const PROBE_BYTES = Buffer.alloc(4096);
const PROBE_EVERY_MS = 2000;
const PROBE_FILE = /^\.probe-[0-9a-f-]{36}$/;
/** A probe left behind by a crash is removed once it is this old. */
const STALE_PROBE_MS = 10 * 60 * 1000;
const LIST_BATCH = 500;

/** The media folder (MEDIA_DIR): the embedded default. Its files are served by the static-files plugin. */
export function createLocalStorage(mediaDir: string, log: MediaLog, now: () => number = Date.now): MediaStorage {
  const pathOf = (file: string) => {
    // Names are made by the server, but a name from the database never leaves the media folder.
    if (path.basename(file) !== file || file.startsWith('.')) throw new Error(`bad media file name: ${file}`);
    return path.join(mediaDir, file);
  };

  // The disk problem seen last, logged once when it starts and once when it ends (not per request).
  let problem: DiskProblem | undefined;
  let probedAt = -Infinity;
  let probing: Promise<void> | undefined;

  function wrote(): void {
    if (!problem) return;
    log.info({ mediaDir }, 'the media folder takes writes again');
    problem = undefined;
  }

  /** Records a failed write; answers the 503 to send when the disk is the cause. */
  function writeFailed(err: unknown): HttpError | undefined {
    const found = diskProblem(err, { strict: false });
    if (!found) return undefined;
    if (found !== problem) {
      log.error({ err, mediaDir }, `cannot write to the media folder (${found}): uploads answer 503 until it can`);
    }
    problem = found;
    return new HttpError(503, DISK_MESSAGES[found], { 'retry-after': '60' });
  }

  async function remove(files: string[]): Promise<void> {
    await Promise.all(
      files.map(async (file) => {
        try {
          await rm(pathOf(file), { force: true });
        } catch (err) {
          log.warn({ err, file }, 'could not delete a media file');
        }
      }),
    );
  }

  async function probe(): Promise<void> {
    const file = path.join(mediaDir, `.probe-${randomUUID()}`);
    try {
      await mkdir(mediaDir, { recursive: true });
      await writeFile(file, PROBE_BYTES, { flag: 'wx' });
      wrote();
    } catch (err) {
      if (!writeFailed(err)) log.warn({ err, mediaDir }, 'the media folder probe failed');
    } finally {
      await rm(file, { force: true }).catch(() => {});
    }
  }

  async function health() {
    if (now() - probedAt >= PROBE_EVERY_MS) {
      probedAt = now();
      probing ??= probe().finally(() => (probing = undefined));
    }
    if (probing) await probing;
    return problem ? { storage: 'failing' as const, problem: DISK_MESSAGES[problem] } : { storage: 'ok' as const };
  }

  return {
    kind: 'local',

    async write(files) {
      try {
        await mkdir(mediaDir, { recursive: true });
      } catch (err) {
        throw writeFailed(err) ?? err;
      }
      // Never overwriting a file (wx): a name that already exists was never ours.
      const results = await Promise.allSettled(
        files.map((file) => writeFile(pathOf(file.name), file.data, { flag: 'wx' })),
      );
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) {
        // A partly written file goes too; a name that already existed (EEXIST) was never ours.
        const ours = files.filter((_, i) => {
          const result = results[i]!;
          return result.status === 'fulfilled' || (result.reason as NodeJS.ErrnoException).code !== 'EEXIST';
        });
        await remove(ours.map((file) => file.name));
        throw writeFailed(failed.reason) ?? failed.reason;
      }
      wrote();
    },

    remove,

    /** The whole file (the static-files plugin serves ranges and 304s of this folder itself). */
    async read(name): Promise<ReadResult> {
      let handle;
      try {
        handle = await open(pathOf(name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
        throw err;
      }
      const info = await handle.stat();
      const body = handle.createReadStream();
      const contentType = TYPE_OF_EXT[extOf(name)];
      return {
        status: 'ok',
        file: {
          body,
          length: info.size,
          size: info.size,
          lastModified: info.mtime,
          ...(contentType ? { contentType } : {}),
        },
      };
    },

    async *list() {
      let batch: { name: string; modifiedMs: number }[] = [];
      const folder = await opendir(mediaDir).catch(() => undefined);
      for await (const entry of folder ?? []) {
        if (PROBE_FILE.test(entry.name)) {
          // A probe left behind by a crash: removed here, it is no picture's.
          const info = await stat(path.join(mediaDir, entry.name)).catch(() => undefined);
          if (info && info.mtimeMs < now() - STALE_PROBE_MS) {
            await rm(path.join(mediaDir, entry.name), { force: true }).catch(() => {});
          }
          continue;
        }
        // Only files the server names; anything else an operator put there is left alone.
        if (!entry.isFile() && !entry.isSymbolicLink()) continue;
        if (!MEDIA_FILE.test(entry.name)) continue;
        const info = await stat(path.join(mediaDir, entry.name)).catch(() => undefined);
        if (!info) continue;
        batch.push({ name: entry.name, modifiedMs: info.mtimeMs });
        if (batch.length >= LIST_BATCH) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },

    health,

    async check() {
      const found = await health();
      if (found.storage === 'failing') throw new HttpError(503, found.problem, { 'retry-after': '60' });
    },
  };
}
