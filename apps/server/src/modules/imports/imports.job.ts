import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { MEDIA_LIMITS, type ImportOptions } from '@share-arts/contract';
import {
  applyImportedProfile,
  insertImportedWork,
  pinImportedWorks,
  recordItem,
  type ImportedItem,
} from '../../actions/imports.js';
import type { Db } from '../../db/client.js';
import { publish } from '../../events/events.js';
import type { JobContext } from '../../jobs/queue.js';
import { extractHashtags } from '../../lib/hashtags.js';
import { HttpError } from '../../lib/http-error.js';
import type { SourcePicture, SourceWork } from './imports.formats.js';
import {
  finishImport,
  markRunning,
  selectImportedPost,
  selectNextPosition,
  selectPostsAt,
  type ImportRow,
} from './imports.sql.js';
import { ArchiveRefused, openArchive, type Archive } from './imports.zip.js';

/** What the import needs of the media module: its one way in for a picture, with its checks and queue. */
export interface ImportMedia {
  upload(input: {
    ownerId: string;
    data: Buffer;
    name?: string;
    alt?: string;
    purpose?: 'post';
  }): Promise<{ id: string }>;
  /** A profile photo, checked and processed as one uploaded in Settings: its id and the URL a profile shows. */
  uploadAvatar(input: { ownerId: string; data: Buffer; name?: string }): Promise<{ id: string; url: string }>;
  /** Deletes a picture and its files (the profile photo the archive's replaced, as Settings does). */
  deleteMedia(id: string): Promise<unknown>;
  /** The message of a 503 that means "the pictures' queue is full": the import waits its turn. */
  busyMessage: string;
}

/** A picture that fails for another reason than itself (the storage) is tried this many times, then reported. */
const PICTURE_TRIES = 3;
/** The artist's sockets hear of the progress at most this often. */
const PROGRESS_EVERY_MS = 1000;
/** The job's tries after its first: after the last, the import is marked failed. */
export const IMPORT_RETRIES = 10;

const SOURCE_NAMES = { instagram: 'Instagram', mastodon: 'Mastodon', pixelfed: 'Pixelfed', 'share-arts': 'Share Arts' };

interface Deps {
  db: Db;
  media: ImportMedia;
  zipOf: (id: string) => string;
  worksOf: (id: string) => string;
  removeFiles: (id: string) => Promise<void>;
  log: { warn(details: object, message: string): void };
}

/**
 * Works of one same date (an export's dates are to the second) keep their order in the archive: each after the first
 * is a millisecond later. Every work of the file goes through it, those handled before a restart too, so that a
 * restarted job gives the same times.
 */
function tieBreaker() {
  let last: string | null = null;
  let tie = 0;
  return (date: string | null): string | null => {
    if (date === null) return null;
    tie = date === last ? tie + 1 : 0;
    last = date;
    return new Date(Date.parse(date) + tie).toISOString();
  };
}

/** The works file, one work a line, with each one's place. */
async function* worksIn(file: string): AsyncGenerator<[number, SourceWork]> {
  const reader = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let position = 0;
  for await (const line of reader) if (line) yield [position++, JSON.parse(line) as SourceWork];
}

/**
 * One upload through the media module, as if the artist made it: the same checks, limits, pipeline and fair queue.
 * A full queue (a 503 saying so, or a 429) is waited out: the import takes one place in the queue at a time, so
 * another person's upload waits behind one picture of it at most. A file refused for itself (not a picture, too
 * large, damaged) is reported at once; any other failure is tried again, then reported.
 */
async function withQueue<T extends object>(
  media: ImportMedia,
  signal: AbortSignal,
  upload: () => Promise<T>,
): Promise<T | { reason: string }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await upload();
    } catch (error) {
      const status = error instanceof HttpError ? error.statusCode : 500;
      if (status === 429 || (status === 503 && (error as Error).message === media.busyMessage)) {
        await sleep(500, undefined, { signal });
        attempt -= 1;
        continue;
      }
      if (status < 500) return { reason: (error as Error).message };
      if (attempt >= PICTURE_TRIES) return { reason: `it could not be stored (${(error as Error).message})` };
      await sleep(1000 * attempt, undefined, { signal });
    }
  }
}

/** One picture of a work, read from the archive (once, up to the upload limit) and uploaded. */
async function uploadPicture(
  archive: Archive,
  media: ImportMedia,
  userId: string,
  picture: SourcePicture,
  signal: AbortSignal,
): Promise<{ id: string } | { reason: string }> {
  let data: Buffer;
  try {
    data = await archive.read(picture.file!, MEDIA_LIMITS.maxBytes);
  } catch (error) {
    if (error instanceof ArchiveRefused) return { reason: error.message };
    throw error;
  }
  return withQueue(media, signal, () =>
    media.upload({ ownerId: userId, data, name: picture.name, alt: picture.alt, purpose: 'post' }),
  );
}

/**
 * The archive's profile, when the artist chose it: the photo uploaded as an avatar (the media module's checks: a
 * file that is not a picture, too large or damaged is reported, and the bio is set all the same), then the bio and
 * photo written, with what was done, in one transaction. A full queue is waited out as a work's picture is.
 */
async function importProfile(
  deps: Deps,
  row: ImportRow,
  archive: Archive,
  profile: { bio: string; photo: string | null },
  signal: AbortSignal,
): Promise<void> {
  const { db, media } = deps;
  let photo: { mediaId: string; url: string } | null = null;
  let problem: string | null = null;
  if (profile.photo) {
    const file = profile.photo;
    const name = file.split('/').pop()!.slice(0, 150);
    const outcome = await archive.read(file, MEDIA_LIMITS.maxBytes).then(
      (data) => withQueue(media, signal, () => media.uploadAvatar({ ownerId: row.user_id, data, name })),
      (error: unknown) => {
        if (error instanceof ArchiveRefused) return { reason: error.message };
        throw error;
      },
    );
    if ('id' in outcome) photo = { mediaId: outcome.id, url: outcome.url };
    else problem = `The profile photo could not be read: ${outcome.reason}`;
  }
  const { replacedPhoto } = await applyImportedProfile(
    db,
    { importId: row.id, userId: row.user_id },
    { bio: profile.bio, photo, problem },
  );
  if (replacedPhoto) await media.deleteMedia(replacedPhoto);
}

/** One source post: remembered as skipped, as imported already, or imported with the pictures that came. */
async function importWork(
  deps: Deps,
  row: ImportRow,
  archive: Archive,
  position: number,
  work: SourceWork,
  signal: AbortSignal,
): Promise<void> {
  const { db, media } = deps;
  const options = row.options as ImportOptions;
  const item: ImportedItem = {
    importId: row.id,
    userId: row.user_id,
    position,
    sourceKey: work.key,
    caption: work.caption,
    date: work.date ? new Date(work.date) : null,
    pictures: work.skip ? 0 : work.pictures.length,
  };
  if (work.skip) return recordItem(db, item, { kind: 'skipped', postId: null, reason: work.skip });
  const earlier = await selectImportedPost(db, row.user_id, work.key);
  if (earlier) return recordItem(db, item, { kind: 'already', postId: earlier.post_id, reason: 'imported already' });
  const mediaIds: string[] = [];
  const reasons: string[] = [];
  for (const [i, picture] of work.pictures.entries()) {
    if (signal.aborted) throw new Error('the import stopped with its process: it goes on at its next try');
    const outcome = picture.skip
      ? { reason: picture.skip }
      : await uploadPicture(archive, media, row.user_id, picture, signal);
    if ('id' in outcome) mediaIds.push(outcome.id);
    else reasons.push(`picture ${i + 1}: ${outcome.reason}`);
  }
  const reason = reasons.join('; ') || null;
  if (mediaIds.length === 0 && !(work.textOnly && work.caption)) {
    return recordItem(db, item, { kind: 'skipped', postId: null, reason });
  }
  await insertImportedWork(db, item, {
    content: work.caption,
    tags: options.hashtagsAsTags ? (work.tags ?? extractHashtags(work.caption)) : [],
    mediaIds,
    createdAt: options.keepDates ? item.date : null,
    rights: work.rights,
    importedFrom: options.markImported ? SOURCE_NAMES[row.source] : null,
    reason,
  });
}

/**
 * The import job: each source post of the works file in order, from the place after the last one handled (a
 * restarted job goes on where it stopped; a post is written with its item in one transaction, so none is half
 * done or done twice). Pictures uploaded for a post whose write never came (the process died between them) are
 * attached to nothing, and the media sweeper removes them after a day. At the end the pinned works are pinned and
 * the archive's files removed. Memory: the archive's list of files, one picture at a time, one work at a time.
 */
export async function importWorks(importId: string, job: JobContext, deps: Deps): Promise<void> {
  const { db, log } = deps;
  const row = await markRunning(db, importId);
  if (!row) return;
  let told = 0;
  const tell = async (force = false) => {
    if (!force && Date.now() - told < PROGRESS_EVERY_MS) return;
    told = Date.now();
    await publish(db, { type: 'import-progress', userId: row.user_id, importId });
  };
  const fail = async (message: string) => {
    await finishImport(db, importId, 'failed', message);
    await deps.removeFiles(importId);
    await tell(true);
  };
  const missing = await access(deps.worksOf(importId)).then(
    () => false,
    () => true,
  );
  if (missing)
    return fail('The archive is no longer stored on the server: upload it again (nothing is imported twice).');
  let archive: Archive;
  try {
    archive = await openArchive(deps.zipOf(importId));
  } catch (error) {
    if (error instanceof ArchiveRefused) return fail(error.message);
    throw error;
  }
  try {
    // The profile first, once: by the job's id (job.once), and by the import's own record of it, written with the
    // profile in one transaction (a try whose completion was lost does not set it again).
    const profile = row.preview.profile;
    if ((row.options as Partial<ImportOptions>).profile === true && profile && !row.preview.profileApplied) {
      await job.once('profile', () => importProfile(deps, row, archive, profile, job.signal));
    }
    const next = await selectNextPosition(db, importId);
    const pinned: { position: number; pin: number }[] = [];
    const ties = tieBreaker();
    for await (const [position, work] of worksIn(deps.worksOf(importId))) {
      if (work.pin !== null && !work.skip) pinned.push({ position, pin: work.pin });
      const date = ties(work.date);
      if (position < next) continue;
      await importWork(deps, row, archive, position, { ...work, date }, job.signal);
      await tell();
    }
    if (pinned.length > 0) {
      const posts = new Map(
        (
          await selectPostsAt(
            db,
            importId,
            pinned.map((pin) => pin.position),
          )
        ).map((item) => [item.position, item.post_id]),
      );
      const inOrder = pinned
        .sort((a, b) => a.pin - b.pin)
        .map((pin) => posts.get(pin.position))
        .filter((postId): postId is string => typeof postId === 'string');
      await pinImportedWorks(db, row.user_id, inOrder);
    }
    await finishImport(db, importId, 'done', null);
    await deps.removeFiles(importId);
    await tell(true);
  } catch (error) {
    if (job.attempt >= IMPORT_RETRIES && !job.signal.aborted) {
      log.warn({ err: error, importId }, 'an import failed at its last try');
      await fail(
        'The import stopped on an error the server could not get past. What was imported stays; upload the archive again to import the rest.',
      );
      return;
    }
    throw error;
  } finally {
    archive.close();
  }
}
