import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MediaVariant } from '../../db/schema.js';
import { DISK_MESSAGES, diskProblem, type DiskProblem } from '../../lib/disk-errors.js';
import { HttpError } from '../../lib/http-error.js';

/** Where failures go; Fastify's logger fits. */
export interface MediaLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Whether the media folder takes writes, as the last write or probe found it. */
export type StorageHealth = { storage: 'ok' } | { storage: 'failing'; problem: string };

/** Public URL of a file in the media folder (served by the static-files plugin with immutable caching). */
export const mediaUrl = (file: string) => `/media/${file}`;

export const originalFileName = (id: string, ext: string) => `${id}-original.${ext}`;

/** `<id>-1080.jpg`, `<id>-1080-p3.avif` (Display P3), `<id>-640-animated.webp` (every frame). */
export const variantFileName = (id: string, variant: Pick<MediaVariant, 'width' | 'format' | 'gamut' | 'animated'>) =>
  `${id}-${variant.width}${variant.gamut === 'p3' ? '-p3' : ''}${variant.animated ? '-animated' : ''}.` +
  (variant.format === 'jpeg' ? 'jpg' : variant.format);

/** Every file name of a media row: the original and its variants. */
export const filesOf = (row: { originalFile: string; variants: MediaVariant[] }) => [
  row.originalFile,
  ...row.variants.map((variant) => variant.file),
];

// A probe writes a block's worth: on a full disk an empty file can still be created.
const PROBE_BYTES = Buffer.alloc(4096);
const PROBE_EVERY_MS = 2000;

export function createMediaStorage(mediaDir: string, log: MediaLog, now: () => number = Date.now) {
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

  return {
    /**
     * Writes new files (never overwriting one); if any write fails, the ones written are removed. A full
     * or unwritable disk is a 503 that says so.
     */
    async write(files: { name: string; data: Buffer }[]): Promise<void> {
      try {
        await mkdir(mediaDir, { recursive: true });
      } catch (err) {
        throw writeFailed(err) ?? err;
      }
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

    /** Removes files; failures are logged, never thrown (the row is what counts). */
    remove,

    /**
     * Whether the folder takes writes: a small file written and removed, at most every 2 s (callers in
     * between share the last answer), so a disk that filled up is reported before an upload meets it.
     */
    async health(): Promise<StorageHealth> {
      if (now() - probedAt >= PROBE_EVERY_MS) {
        probedAt = now();
        probing ??= probe().finally(() => (probing = undefined));
      }
      if (probing) await probing;
      return problem ? { storage: 'failing', problem: DISK_MESSAGES[problem] } : { storage: 'ok' };
    },
  };
}

export type MediaStorage = ReturnType<typeof createMediaStorage>;
