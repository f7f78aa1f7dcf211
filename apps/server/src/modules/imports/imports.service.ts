import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  formatDate,
  IMPORT_ERRORS,
  IMPORT_ITEMS_PAGE,
  IMPORT_LIMITS,
  IMPORTS_LISTED,
  type Import,
  type ImportItem,
  type ImportItemsResponse,
  type ImportOptions,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { publish } from '../../events/events.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import type { JobQueue } from '../../jobs/queue.js';
import { IMPORT_RETRIES, importWorks, type ImportMedia } from './imports.job.js';
import { readArchive, type Reading } from './imports.formats.js';
import {
  deleteReadyImports,
  hasRunningImport,
  insertImport,
  originTaken,
  queueImport,
  selectImport,
  selectImports,
  selectItems,
  selectLiveImportIds,
  type ImportPreview,
  type ImportRow,
} from './imports.sql.js';
import { ArchiveRefused, openArchive } from './imports.zip.js';

export const IMPORT_JOB = 'imports.run';
const SWEEP_JOB = 'imports.sweep';

const date = (value: string | Date | null): string | null =>
  value === null ? null : formatDate(value instanceof Date ? value : new Date(value));

/** A bio's first words for the preview: up to IMPORT_LIMITS.previewBio characters, cut between two words. */
function excerpt(bio: string): string {
  const chars = [...bio.replace(/\s+/g, ' ')];
  if (chars.length <= IMPORT_LIMITS.previewBio) return chars.join('');
  const cut = chars.slice(0, IMPORT_LIMITS.previewBio).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > IMPORT_LIMITS.previewBio / 2 ? cut.slice(0, space) : cut}…`;
}

/** What an import answers: its preview, choices and progress, with an estimate at the pace since the job (re)started. */
export function toImport(row: ImportRow, now = Date.now()): Import {
  const resumed = row.resumed_at ? new Date(row.resumed_at).getTime() : null;
  const done = row.pictures_done - row.pictures_at_resume;
  const left = row.pictures_total - row.pictures_done;
  const estimate =
    row.state === 'running' && resumed !== null && done > 0
      ? Math.max(0, Math.round((((now - resumed) / 1000) * left) / done))
      : null;
  return {
    _id: row.id,
    source: row.source,
    state: row.state,
    fileName: row.file_name,
    bytes: Number(row.bytes),
    preview: {
      works: row.preview.works,
      pictures: row.preview.pictures,
      skipped: row.preview.skipped,
      videos: row.preview.videos,
      from: row.preview.from,
      to: row.preview.to,
      first: row.preview.first,
      profile: row.preview.profile
        ? { bio: excerpt(row.preview.profile.bio), photo: row.preview.profile.photo !== null }
        : null,
    },
    options: { keepDates: true, hashtagsAsTags: true, markImported: false, profile: false, ...row.options },
    progress: {
      postsDone: row.posts_done,
      postsTotal: row.posts_total,
      picturesDone: row.pictures_done,
      picturesTotal: row.pictures_total,
      imported: row.imported,
      skipped: row.skipped,
      estimateSeconds: estimate,
    },
    error: row.error,
    profile: row.preview.profileApplied ?? null,
    createdAt: date(row.created_at)!,
    finishedAt: date(row.finished_at),
  };
}

/** The preview of a reading: what will come, its dates, the first few works, the profile it holds. */
function previewOf({ works, profile }: Reading): ImportPreview {
  const kept = works.filter((work) => !work.skip);
  const dated = kept.filter((work) => work.date).map((work) => work.date!);
  return {
    works: kept.length,
    pictures: kept.reduce((sum, work) => sum + work.pictures.filter((picture) => !picture.skip).length, 0),
    skipped: works.length - kept.length,
    videos: works.reduce(
      (sum, work) => sum + work.pictures.filter((picture) => /video/.test(picture.skip ?? '')).length,
      0,
    ),
    from: date(dated[0] ?? null),
    to: date(dated.at(-1) ?? null),
    first: kept.slice(0, IMPORT_LIMITS.previewWorks).map((work) => ({
      caption: [...work.caption].slice(0, 200).join(''),
      date: date(work.date),
      pictures: work.pictures.filter((picture) => !picture.skip).length,
    })),
    profile,
  };
}

const refused = (message: string) => new HttpError(422, message);

/**
 * Imports (issue 40). An archive streams from the request to a file of DATA_DIR/imports (never whole in memory), is
 * checked and read there (its central directory, then its index: see openArchive and readArchive), and its works are
 * written beside it, one per line, for the job. The artist sees the preview, makes the choices, and the job
 * imports (imports.job.ts); the archive's files are removed when it is done, and by an hourly sweep when a preview
 * is abandoned.
 */
export function createImportsService({
  db,
  jobs,
  media,
  dir,
  log,
}: {
  db: Db;
  jobs: JobQueue;
  media: ImportMedia;
  /** Where archives wait while they are imported (DATA_DIR/imports). */
  dir: string;
  log: { warn(details: object, message: string): void };
}) {
  const zipOf = (id: string) => path.join(dir, `${id}.zip`);
  const worksOf = (id: string) => path.join(dir, `${id}.works.jsonl`);
  const removeFiles = (id: string) =>
    Promise.all([rm(zipOf(id), { force: true }), rm(worksOf(id), { force: true })]).then(() => {});

  jobs.define<{ importId: string }>(
    IMPORT_JOB,
    (payload, job) => importWorks(payload.importId, job, { db, media, zipOf, worksOf, removeFiles, log }),
    // One import runs for as long as its pictures take (5,000 pictures: about an hour); a restart goes on where it stopped.
    {
      retryLimit: IMPORT_RETRIES,
      retryDelaySeconds: 5,
      retryDelayMaxSeconds: 300,
      expireInSeconds: 12 * 3600,
      batchSize: 1,
    },
  );
  jobs.define(SWEEP_JOB, () => sweep(), { every: '17 * * * *', retryLimit: 1 });

  /** Removes the files of archives no import waits for any more (done, failed, abandoned, their account deleted). */
  async function sweep(): Promise<void> {
    const names = await readdir(dir).catch(() => [] as string[]);
    const ids = [...new Set(names.map((name) => /^([0-9a-f-]{36})\./.exec(name)?.[1]).filter(Boolean) as string[])];
    if (ids.length === 0) return;
    const live = await selectLiveImportIds(db, ids);
    for (const id of ids) {
      if (live.has(id)) continue;
      // An upload being read has no row yet: its file is left for an hour.
      const info = await stat(zipOf(id)).catch(() => undefined);
      if (info && info.mtimeMs > Date.now() - 3600_000) continue;
      await removeFiles(id);
    }
  }

  /** The works of a reading, one JSON line each, for the job to read one at a time. */
  async function writeWorks(id: string, reading: Reading): Promise<void> {
    const lines = (function* () {
      for (const work of reading.works) yield `${JSON.stringify(work)}\n`;
    })();
    await pipeline(lines, createWriteStream(worksOf(id)));
  }

  async function ownImport(userId: string, id: string): Promise<ImportRow> {
    const row = isUuid(id) ? await selectImport(db, id, userId) : undefined;
    if (!row) throw notFound(IMPORT_ERRORS.notFound);
    return row;
  }

  return {
    /** 409 while an import of the account is queued or running (asked before the archive is read). */
    async checkNotRunning(userId: string): Promise<void> {
      if (await hasRunningImport(db, userId)) throw new HttpError(409, IMPORT_ERRORS.running);
    },

    /**
     * Takes an archive from the request's stream to a file, checks and reads it, and answers its preview; a previewed
     * import not started is replaced. 413 past IMPORT_LIMITS.maxArchiveBytes, 422 with a sentence for anything refused.
     */
    async upload(
      userId: string,
      file: { stream: Readable & { truncated?: boolean }; fileName: string },
    ): Promise<Import> {
      await mkdir(dir, { recursive: true });
      const id = randomUUID();
      try {
        await pipeline(file.stream, createWriteStream(zipOf(id)));
        if (file.stream.truncated) throw new HttpError(413, IMPORT_ERRORS.tooLarge);
        const archive = await openArchive(zipOf(id));
        let reading: Reading;
        try {
          reading = await readArchive(archive);
        } finally {
          archive.close();
        }
        if (reading.accountId === userId) throw refused(IMPORT_ERRORS.ownExport);
        if (reading.origin && (await originTaken(db, reading.origin, userId)))
          throw refused(IMPORT_ERRORS.someoneElses);
        await writeWorks(id, reading);
        const { size } = await stat(zipOf(id));
        for (const old of await deleteReadyImports(db, userId)) await removeFiles(old);
        const kept = reading.works.filter((work) => !work.skip);
        const row = await insertImport(db, {
          id,
          userId,
          source: reading.source,
          fileName: [...file.fileName].slice(0, 200).join('') || 'archive.zip',
          bytes: size,
          origin: reading.origin,
          preview: previewOf(reading),
          postsTotal: reading.works.length,
          picturesTotal: kept.reduce((sum, work) => sum + work.pictures.length, 0),
        });
        return toImport(row);
      } catch (error) {
        await removeFiles(id);
        if (error instanceof ArchiveRefused) throw refused(error.message);
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new HttpError(413, IMPORT_ERRORS.tooLarge);
        throw error;
      }
    },

    /** Starts a previewed import with the artist's choices: the job takes it from here. */
    async start(userId: string, id: string, options: ImportOptions): Promise<Import> {
      const row = await ownImport(userId, id);
      if (row.state !== 'ready') throw new HttpError(409, IMPORT_ERRORS.notReady);
      if (await hasRunningImport(db, userId)) throw new HttpError(409, IMPORT_ERRORS.running);
      const queued = await queueImport(db, id, userId, options).catch((error: unknown) => {
        // Another start won the race (one queued or running import per account).
        if ((error as { code?: string }).code === '23505') throw new HttpError(409, IMPORT_ERRORS.running);
        throw error;
      });
      if (!queued) throw new HttpError(409, IMPORT_ERRORS.notReady);
      await jobs.send(IMPORT_JOB, { importId: id });
      await publish(db, { type: 'import-progress', userId, importId: id });
      return toImport(queued);
    },

    async get(userId: string, id: string): Promise<Import> {
      return toImport(await ownImport(userId, id));
    },

    /** The account's newest imports: a page that was closed finds its running import here. */
    async list(userId: string): Promise<Import[]> {
      return (await selectImports(db, userId, IMPORTS_LISTED)).map((row) => toImport(row));
    },

    /** What became of each source post, in archive order, a page at a time. */
    async items(
      userId: string,
      id: string,
      query: { outcome?: 'imported' | 'skipped' | undefined; cursor?: string | undefined },
    ): Promise<ImportItemsResponse> {
      await ownImport(userId, id);
      const limit = IMPORT_ITEMS_PAGE;
      const rows = await selectItems(db, id, {
        outcome: query.outcome,
        after: query.cursor === undefined ? -1 : Number(query.cursor),
        limit: limit + 1,
      });
      const items: ImportItem[] = rows.slice(0, limit).map((row) => ({
        position: row.position,
        sourceId: row.source_key,
        outcome: row.outcome,
        postId: row.post_id,
        reason: row.reason,
        caption: row.caption,
        date: date(row.date),
        pictures: row.pictures,
      }));
      return { items, nextCursor: rows.length > limit ? String(items.at(-1)!.position) : null };
    },

    sweep,
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
