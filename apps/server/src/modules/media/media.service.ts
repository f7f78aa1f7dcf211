import { randomUUID } from 'node:crypto';
import { MEDIA_LIMITS, MEDIA_PURPOSES, type MediaPurpose } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { eq } from 'drizzle-orm';
import { posts, type MediaVariant } from '../../db/schema.js';
import { publish } from '../live/live.events.js';
import { badRequest, HttpError, notFound } from '../../lib/http-error.js';
import { inspectImage, processImage } from './media.processing.js';
import { toPicture } from './media.presenter.js';
import {
  deleteMediaRow,
  insertMedia,
  selectMediaById,
  selectMediaByIds,
  updateMediaAlt,
  type MediaRow,
} from './media.queries.js';
import { createMediaStorage, filesOf, originalFileName, variantFileName, type MediaLog } from './media.storage.js';

export { toPicture };
export type { MediaRow };

export const MEDIA_NOT_FOUND = 'No picture with this id.';
export const MEDIA_NOT_OWNED = 'This picture belongs to someone else: use a picture you uploaded.';
export const ALT_NOT_OWNER = 'Only the person who uploaded a picture can change its alt text.';
export const MEDIA_BUSY = 'The server is busy processing other pictures. Please try again in a moment.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Runs at most `concurrency` jobs at once; up to `maxQueued` more wait their turn, beyond that the
 * caller gets a 503. Decoding and encoding run on libuv's thread pool (4 threads by default), which also
 * serves file reads and password hashing, so pictures must not take all of it.
 */
export function createLimiter(concurrency: number, maxQueued: number) {
  let active = 0;
  let peak = 0;
  const waiting: (() => void)[] = [];
  return {
    async run<T>(job: () => Promise<T>): Promise<T> {
      if (active < concurrency) {
        active += 1;
      } else {
        if (waiting.length >= maxQueued) throw new HttpError(503, MEDIA_BUSY, { 'retry-after': '5' });
        // A finishing job hands its slot straight to the next one, so `active` stays the same.
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      peak = Math.max(peak, active);
      try {
        return await job();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else active -= 1;
      }
    },
    stats: () => ({ active, queued: waiting.length, peak }),
  };
}

export interface UploadInput {
  ownerId: string;
  /** Default `post`. */
  purpose?: MediaPurpose;
  /** The file exactly as uploaded; its format is detected from its content. */
  data: Buffer;
  alt?: string;
}

export interface MediaServiceOptions {
  db: Db;
  mediaDir: string;
  /** Pictures processed at the same time (default 2); the others wait in line. */
  concurrency?: number;
  /** Uploads that may wait for processing (default 16); more answer 503 with Retry-After. */
  maxQueued?: number;
  /** Where failures to delete files are reported (default: console). */
  log?: MediaLog;
}

function cleanAlt(alt: string | undefined): string {
  const trimmed = (alt ?? '').trim();
  if (trimmed.length > MEDIA_LIMITS.altMax) {
    throw badRequest(`alt must be at most ${MEDIA_LIMITS.altMax} characters long.`);
  }
  return trimmed;
}

function checkPurpose(purpose: string): MediaPurpose {
  if (!(MEDIA_PURPOSES as readonly string[]).includes(purpose)) {
    throw badRequest(`purpose must be one of: ${MEDIA_PURPOSES.join(', ')}.`);
  }
  return purpose as MediaPurpose;
}

const consoleLog: MediaLog = { warn: (details, message) => console.warn(message, details) };

export function createMediaService({
  db,
  mediaDir,
  concurrency = 2,
  maxQueued = 16,
  log = consoleLog,
}: MediaServiceOptions) {
  const storage = createMediaStorage(mediaDir, log);
  const limiter = createLimiter(concurrency, maxQueued);

  async function findById(id: string, database: Db = db): Promise<MediaRow | undefined> {
    return UUID.test(id) ? selectMediaById(database, id) : undefined;
  }

  return {
    /**
     * Checks, processes and stores an upload: the original as-is plus the re-encoded variants, then the
     * row. Bad input is an HttpError (400, 413, 415, 422) whose message says what is allowed.
     */
    async upload({ ownerId, purpose = 'post', data, alt }: UploadInput): Promise<MediaRow> {
      checkPurpose(purpose);
      const altText = cleanAlt(alt);
      // Everything that refuses an upload reads only bytes and headers, so it answers at once even
      // when other pictures are being processed.
      const inspected = await inspectImage(data);
      const processed = await limiter.run(() => processImage(data, purpose, inspected));

      const id = randomUUID();
      const originalFile = originalFileName(id, processed.original.ext);
      const variants: MediaVariant[] = processed.variants.map(({ data: bytes, ...variant }) => ({
        ...variant,
        file: variantFileName(id, variant),
        bytes: bytes.length,
      }));
      await storage.write([
        { name: originalFile, data: processed.original.data },
        ...processed.variants.map((variant, i) => ({ name: variants[i]!.file, data: variant.data })),
      ]);
      try {
        return await insertMedia(db, {
          id,
          ownerId,
          purpose,
          originalFile,
          originalMime: inspected.format.mime,
          originalBytes: data.length,
          width: processed.width,
          height: processed.height,
          placeholder: processed.placeholder,
          alt: altText,
          variants,
        });
      } catch (error) {
        await storage.remove(filesOf({ originalFile, variants }));
        throw error;
      }
    },

    findById,

    /** Rows for the ids that exist (in no particular order); malformed ids are skipped. */
    async findByIds(ids: string[], database: Db = db): Promise<MediaRow[]> {
      return selectMediaByIds(database, [...new Set(ids.filter((id) => UUID.test(id)))]);
    },

    /**
     * A picture `ownerId` uploaded, to attach to a post or a profile: 404 when it does not exist, 403
     * when it is someone else's, 400 when it was uploaded for another purpose. Pass a transaction as
     * `db` to read inside it.
     */
    async findOwned(ownerId: string, id: string, options: { purpose?: MediaPurpose; db?: Db } = {}): Promise<MediaRow> {
      const row = await findById(id, options.db);
      if (!row) throw notFound(MEDIA_NOT_FOUND);
      if (row.ownerId !== ownerId) throw new HttpError(403, MEDIA_NOT_OWNED);
      if (options.purpose && row.purpose !== options.purpose) {
        throw badRequest(
          `This picture was uploaded as ${row.purpose === 'avatar' ? 'an avatar' : 'a post picture'}; ` +
            `upload it again with purpose=${options.purpose}.`,
        );
      }
      return row;
    },

    /** Changes the alt text of a picture; only its owner may. */
    async editAlt(userId: string, id: string, alt: string): Promise<MediaRow> {
      const altText = cleanAlt(alt);
      const row = await findById(id);
      if (!row) throw notFound(MEDIA_NOT_FOUND);
      if (row.ownerId !== userId) throw new HttpError(403, ALT_NOT_OWNER);
      const updated = await updateMediaAlt(db, id, altText);
      if (!updated) throw notFound(MEDIA_NOT_FOUND);
      // The post showing it (a picture belongs to one post at most) changed for its readers.
      const [post] = await db.select({ id: posts.id }).from(posts).where(eq(posts.mediaId, id));
      if (post) await publish(db, { e: 'e', p: post.id });
      return updated;
    },

    /**
     * Deletes a picture's row and then its files (posts and profiles that used it lose it: the foreign
     * keys set null). File deletion failures are logged, never thrown. False when there was no such row.
     */
    async deleteMedia(id: string): Promise<boolean> {
      if (!UUID.test(id)) return false;
      const row = await deleteMediaRow(db, id);
      if (!row) return false;
      await storage.remove(filesOf(row));
      return true;
    },

    toPicture,

    /** Processing jobs running and waiting now, and the most ever running at once. */
    processingStats: limiter.stats,
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
