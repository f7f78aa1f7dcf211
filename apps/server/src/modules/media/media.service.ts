import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { MEDIA_LIMITS, MEDIA_PURPOSES, type MediaPurpose } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import type { EventBus } from '../../events/bus.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { MediaVariant } from '../../db/schema.js';
import { announcePictureChanged, recordAltRevision } from '../../actions/media.js';
import { badRequest, HttpError, notFound } from '../../lib/http-error.js';
import { inspectImage, processImage } from './media.processing.js';
import { toPicture } from './media.presenter.js';
import { cleanFileName, contentDisposition, downloadName } from './media.download.js';
import {
  deleteMediaRow,
  insertMedia,
  selectMediaById,
  selectMediaByIds,
  selectMediaByOriginalFile,
  selectMediaRights,
  selectPostMediaFiles,
  updateMediaAlt,
  updateMediaFocus,
  type MediaRow,
} from './media.sql.js';
import {
  filesOf,
  mediaUrl,
  originalFileName,
  variantFileName,
  type MediaLog,
  type MediaStorage,
} from './media.storage.js';
import { createMediaStorage } from './media.store.js';
import { createFairQueue } from './media.queue.js';
import { defineSweepJobs, sweepMedia } from './media.sweeper.js';
import { defineRenditionJob, RENDITIONS_JOB, writeMissingRenditions } from './media.renditions.js';

export { toPicture };
export { MEDIA_BUSY } from './media.queue.js';
export type { MediaRow };

export const MEDIA_NOT_FOUND = 'No picture with this id.';
export const MEDIA_NOT_OWNED = 'This picture belongs to someone else: use a picture you uploaded.';
export const ALT_NOT_OWNER = 'Only the person who uploaded a picture can change its alt text.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Every media file is named `<id>-…`: the id of its row. */
const MEDIA_FILE_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-/;
const ORIGINAL_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-original\.[a-z]+$/;

export interface UploadInput {
  ownerId: string;
  /** Default `post`. */
  purpose?: MediaPurpose;
  /** The file exactly as uploaded; its format is detected from its content. */
  data: Buffer;
  /** The name it was uploaded under (the multipart filename): kept, cleaned, for Download. */
  name?: string;
  alt?: string;
}

export interface MediaServiceOptions {
  db: Db;
  /** Where the files go: the app's (MEDIA_STORE), shared with the export and the static files. */
  storage?: MediaStorage;
  /** Without `storage`: the local media folder to use. */
  mediaDir?: string;
  /** Pictures processed at the same time (default 2); the others wait in line. */
  concurrency?: number;
  /** Uploads that may wait for processing (default 16); more answer 503 with Retry-After. */
  maxQueued?: number;
  /** Uploads one account may have waiting (default 4); more answer 429 with Retry-After. */
  maxQueuedPerAccount?: number;
  /** Where failures to write or delete files are reported (default: console). */
  log?: MediaLog;
  /** The clock of the storage probe; tests replace it. */
  now?: () => number;
  /** Told each picture's processing time in seconds, its wait in line left out (the metrics, issue 25). */
  processed?: (seconds: number) => void;
  /** The background jobs the hourly sweeps run on (issue 37); without, only `sweep()` runs them. */
  jobs?: JobQueue;
  /**
   * Every process's events: a post's `post-changed` (a moderator removed it, or gave it back) forgets what this
   * process remembers of its pictures' files (see fileRights).
   */
  bus?: EventBus;
}

/** What serving a picture's files needs of its row, remembered a minute per process (see fileRights). */
interface FileFacts {
  /** Its owner asks AI crawlers not to train on their work. */
  optOut: boolean;
  /** The post showing it, if any (a picture is in one post at most). */
  postId: string | null;
  /** A moderator removed that post: the files are served to nobody (issue 38, item 6). */
  removed: boolean;
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

const consoleLog: MediaLog = {
  info: (details, message) => console.info(message, details),
  warn: (details, message) => console.warn(message, details),
  error: (details, message) => console.error(message, details),
};

export function createMediaService({
  db,
  storage: given,
  mediaDir,
  concurrency = 2,
  maxQueued = 16,
  maxQueuedPerAccount = 4,
  log = consoleLog,
  now = Date.now,
  processed: onProcessed,
  jobs,
  bus,
}: MediaServiceOptions) {
  if (!given && mediaDir === undefined) throw new Error('createMediaService needs a storage or a mediaDir');
  const storage = given ?? createMediaStorage({ mediaDir: mediaDir! }, log, now);
  const queue = createFairQueue({ concurrency, maxQueued, maxQueuedPerAccount });
  const renditions = { db, storage, log, run: <T>(work: () => Promise<T>) => queue.run(RENDITIONS_JOB.kind, work) };
  if (jobs) {
    defineSweepJobs(jobs, { db, storage, log, now });
    defineRenditionJob(jobs, renditions);
  }
  /** The pictures whose post is known (ids of posts → ids of pictures), to forget them by their post. */
  const byPost = new Map<string, Set<string>>();
  /** Each picture's facts, for a minute (see fileRights). */
  const facts = new LRUCache<string, FileFacts>({
    max: 50_000,
    ttl: 60_000,
    dispose: ({ postId }, id) => {
      const ids = postId ? byPost.get(postId) : undefined;
      ids?.delete(id);
      if (ids?.size === 0) byPost.delete(postId!);
    },
  });
  /** Counts forgettings: a lookup that saw it change while it ran does not remember its answer. */
  let generation = 0;
  function remember(id: string, known: FileFacts) {
    facts.set(id, known);
    if (known.postId) byPost.set(known.postId, (byPost.get(known.postId) ?? new Set()).add(id));
  }
  /** Forgets, in this process, what it remembers of the post's pictures' files. */
  function forgetPost(postId: string) {
    generation += 1;
    for (const id of [...(byPost.get(postId) ?? [])]) facts.delete(id);
  }
  bus?.subscribe(
    (event) => {
      if (event.type === 'post-changed') forgetPost(event.postId);
    },
    () => {
      // Events were lost while the listener was away: nothing remembered can be trusted.
      generation += 1;
      facts.clear();
    },
  );

  async function findById(id: string, database: Db = db): Promise<MediaRow | undefined> {
    return UUID.test(id) ? selectMediaById(database, id) : undefined;
  }

  return {
    /**
     * Checks, processes and stores an upload: the original (as uploaded, less its personal metadata) plus
     * the re-encoded variants, then the row. Bad input is an HttpError (400, 413, 415, 422) whose message says what is allowed.
     */
    async upload({ ownerId, purpose = 'post', data, name, alt }: UploadInput): Promise<MediaRow> {
      checkPurpose(purpose);
      const altText = cleanAlt(alt);
      // Everything that refuses an upload reads only bytes and headers, so it answers at once even
      // when other pictures are being processed.
      const inspected = await inspectImage(data);
      const processed = await queue.run(ownerId, async () => {
        const start = performance.now();
        const result = await processImage(data, purpose, inspected);
        onProcessed?.((performance.now() - start) / 1000);
        return result;
      });

      const id = randomUUID();
      const originalFile = originalFileName(id, processed.original.ext);
      const variants: MediaVariant[] = processed.variants.map(({ data: bytes, ...variant }) => ({
        ...variant,
        file: variantFileName(id, variant),
        bytes: bytes.length,
      }));
      // An animation's GIF for other servers is written by the renditions job, queued at once (seconds of work).
      const animationForOthers = purpose === 'post' && processed.animated;
      await storage.write([
        { name: originalFile, data: processed.original.data },
        ...processed.variants.map((variant, i) => ({ name: variants[i]!.file, data: variant.data })),
      ]);
      let row: MediaRow;
      try {
        row = await insertMedia(db, {
          id,
          ownerId,
          purpose,
          originalFile,
          originalMime: inspected.format.mime,
          originalBytes: processed.original.data.length,
          originalName: cleanFileName(name, processed.original.ext),
          width: processed.width,
          height: processed.height,
          placeholder: processed.placeholder,
          blurhash: processed.blurhash,
          alt: altText,
          variants,
          pixelated: processed.pixelated,
          animated: processed.animated,
          federatedPending: animationForOthers,
        });
      } catch (error) {
        await storage.remove(filesOf({ originalFile, variants }));
        throw error;
      }
      if (animationForOthers) {
        jobs?.send(RENDITIONS_JOB.kind, {}).catch((error: unknown) => {
          log.warn({ mediaId: id, error: String(error) }, 'the GIF for other servers waits for the hourly run');
        });
      }
      return row;
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
      // A picture a post shows: the change is kept in the post's history (issue 41), in the same transaction.
      const updated = await db.transaction(async (tx) => {
        if (row.alt !== altText) await recordAltRevision(tx, id, row.alt);
        return updateMediaAlt(tx, id, altText);
      });
      if (!updated) throw notFound(MEDIA_NOT_FOUND);
      await announcePictureChanged(db, id);
      return updated;
    },

    /**
     * Sets one's own picture's focal point (Mastodon's `focus`, each -1..1; issue 45), or clears it with null; a post
     * showing it learns of the change as of an alt text's.
     */
    async editFocus(userId: string, id: string, focus: { x: number; y: number } | null): Promise<MediaRow> {
      const row = await findById(id);
      if (!row) throw notFound(MEDIA_NOT_FOUND);
      if (row.ownerId !== userId) throw new HttpError(403, ALT_NOT_OWNER);
      const updated = await updateMediaFocus(db, id, focus);
      if (!updated) throw notFound(MEDIA_NOT_FOUND);
      await announcePictureChanged(db, id);
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

    /**
     * Removes the files of pictures whose rows are already gone (a deleted account's, issue 24). Failures
     * are logged, never thrown: the sweeper removes files without a row later.
     */
    async removeFiles(pictures: Pick<MediaRow, 'originalFile' | 'variants'>[]): Promise<void> {
      for (const picture of pictures) await storage.remove(filesOf(picture));
    },

    toPicture,

    /**
     * The Content-Disposition of an original file (`<id>-original.<ext>`), naming it as it was uploaded:
     * `inline` to view it, `attachment` to download it. Undefined for any other file or no such row.
     */
    async originalDisposition(file: string, download: boolean): Promise<string | undefined> {
      const id = ORIGINAL_FILE.exec(file)?.[1];
      const row = id ? await selectMediaByOriginalFile(db, id, file) : undefined;
      return row ? contentDisposition(downloadName(row), download ? 'attachment' : 'inline') : undefined;
    },

    /**
     * The artist's rights on a media file (issue 23): `X-Robots-Tag: noai, noimageai` when its owner asks AI
     * crawlers not to train on their work (the default), and whether a download (`?download`) of an
     * original is refused (no post showing it is under a CC licence or allows downloads). `removed`: a
     * moderator removed the post showing it, and the file is served to nobody (issue 38, item 6). What the
     * lookup found is kept a minute per picture (files are immutable and cached a year: a lookup per cache
     * miss); a change of its post (`post-changed`, and forgetPost in the process that removed it) forgets it.
     */
    async fileRights(
      file: string,
      download: boolean,
    ): Promise<{ robots?: string; refuseDownload: boolean; removed: boolean }> {
      const id = MEDIA_FILE_ID.exec(file)?.[1];
      if (!id) return { refuseDownload: false, removed: false };
      const original = download && ORIGINAL_FILE.test(file);
      let known = original ? undefined : facts.get(id);
      let mayDownload = true;
      if (known === undefined) {
        const started = generation;
        const row = await selectMediaRights(db, id, original);
        if (!row) return { refuseDownload: false, removed: false };
        // A picture an edit took out, kept for its author by the post's history (issue 41): public to nobody.
        known = { optOut: row.ai_opt_out, postId: row.post_id, removed: row.removed || row.kept };
        mayDownload = row.may_download;
        if (generation === started) remember(id, known);
      }
      return {
        ...(known.optOut ? { robots: 'noai, noimageai' } : {}),
        refuseDownload: original && !mayDownload,
        removed: known.removed,
      };
    },

    /**
     * Forgets at once, in this process, what it remembers of the post's pictures' files (every process does on
     * the post's `post-changed`): called by the process that removed the post, before it answers.
     */
    forgetPost,

    /** The URLs of every file of the post's pictures (originals and variants): what a CDN purges. */
    async fileUrlsOfPost(postId: string, database: Db = db): Promise<string[]> {
      return (await selectPostMediaFiles(database, postId)).flatMap((picture) => filesOf(picture).map(mediaUrl));
    },

    /** Processing jobs running and waiting now, the most ever running at once, accounts with jobs. */
    processingStats: queue.stats,

    /** Whether the picture storage takes writes (probed at most every 2 s). */
    storageHealth: storage.health,

    /** Throws a 503 saying what fails when the picture storage cannot be reached (for /api/ready). */
    checkStorage: storage.check,

    /** Deletes uploads attached to nothing for a day, and files whose row is gone (see media.sweeper). */
    sweep: () => sweepMedia({ db, storage, log, now }),

    /** Writes the renditions for other servers that older pictures lack (see media.renditions); answers how many. */
    writeRenditions: () => writeMissingRenditions(renditions),
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
