import type { Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { MediaVariant } from '../../db/schema.js';
import { announcePictureChanged } from '../../actions/media.js';
import { federatedRendition } from './media.processing.js';
import {
  addFederatedRendition,
  claimPendingRendition,
  releasePendingRendition,
  selectPendingRenditions,
  type PendingRendition,
} from './media.sql.js';
import { variantFileName, type MediaLog, type MediaStorage } from './media.storage.js';

/**
 * Writes the renditions other servers are sent that an upload leaves pending: every animation's GIF (seconds of
 * work, so the upload queues this job at once rather than keep the artist waiting), and pixel art's PNG and the
 * GIFs of the pictures uploaded before uploads wrote them (migration 0037 marks those); hourly too, for whatever
 * a run gave back. Until a picture has its own, its JPEG goes out, and once written the work's Note changes, so
 * the servers that have it are sent an Update.
 */
export const RENDITIONS_JOB = { kind: 'media.federated-renditions', every: '50 * * * *' } as const;

const BATCH = 20;

interface RenditionDeps {
  db: Db;
  storage: MediaStorage;
  log: MediaLog;
  /** Runs the encode in the media service's line of uploads (as one more account), so uploads keep their share. */
  run: <T>(work: () => Promise<T>) => Promise<T>;
}

/** The stored original's bytes; undefined when it cannot be read (a missing file is logged, never retried). */
async function readOriginal(storage: MediaStorage, file: string): Promise<Buffer | undefined> {
  const found = await storage.read(file);
  if (found.status !== 'ok') return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of found.file.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** One picture's rendition encoded from its original; undefined when there is none to write (logged). */
async function encode({ storage, log, run }: RenditionDeps, picture: PendingRendition) {
  const original = await readOriginal(storage, picture.originalFile);
  if (!original) {
    log.warn({ mediaId: picture.id }, 'no rendition for other servers: the original is missing');
    return undefined;
  }
  return run(async () => {
    try {
      return await federatedRendition(original, picture);
    } catch (error) {
      log.warn({ mediaId: picture.id, error: String(error) }, 'no rendition for other servers: unreadable original');
      return undefined;
    }
  });
}

/**
 * One picture's rendition written and added to its row, the picture taken for this run first (so two runs never
 * write the same file). What gives none (no original, one that no longer decodes) leaves it without, logged, so
 * no picture is tried hour after hour: its JPEG keeps going out. What may pass (a full line of uploads,
 * unreachable storage) gives it back to the next run and throws, and the job tries again later.
 */
async function writeOne(deps: RenditionDeps, picture: PendingRendition): Promise<void> {
  const { db, storage } = deps;
  if (!(await claimPendingRendition(db, picture.id))) return;
  let added = false;
  try {
    const encoded = await encode(deps, picture);
    if (!encoded) return;
    const { data, ...rest } = encoded;
    const variant: MediaVariant = { ...rest, file: variantFileName(picture.id, rest), bytes: data.length };
    // A file left by a run that died after writing it (no row names it): never overwritten otherwise.
    await storage.remove([variant.file]);
    await storage.write([{ name: variant.file, data }]);
    added = await addFederatedRendition(db, picture.id, variant);
    // Deleted meanwhile: its file is no one's.
    if (!added) await storage.remove([variant.file]);
  } catch (error) {
    await releasePendingRendition(db, picture.id);
    throw error;
  }
  // The post showing it is read again by every process: its Note now sends the new file.
  if (added) await announcePictureChanged(db, picture.id);
}

/** Writes the missing renditions, a batch at a time, until none is missing or `signal` stops it; answers how many. */
export async function writeMissingRenditions(deps: RenditionDeps, signal?: AbortSignal): Promise<number> {
  let done = 0;
  for (;;) {
    const pending = await selectPendingRenditions(deps.db, BATCH);
    for (const picture of pending) {
      if (signal?.aborted) return done;
      await writeOne(deps, picture);
      done += 1;
    }
    if (pending.length < BATCH) return done;
  }
}

/** The job: periodic, idempotent (a picture taken by another run is left to it). */
export function defineRenditionJob(jobs: JobQueue, deps: RenditionDeps): void {
  jobs.define(
    RENDITIONS_JOB.kind,
    async (_payload, job) => {
      const done = await writeMissingRenditions(deps, job.signal);
      if (done > 0) deps.log.info({ done }, 'wrote the renditions other servers are sent of older pictures');
    },
    { every: RENDITIONS_JOB.every, retryLimit: 2, retryDelaySeconds: 60, expireInSeconds: 3600, batchSize: 1 },
  );
}
