import {
  DRAFT_EXCERPT_MAX,
  DRAFT_LIMITS,
  LIMITS,
  PAGE_LIMITS,
  type Draft,
  type DraftRights,
  type DraftSummary,
  type Post,
  type SaveDraftBody,
  type ScheduleDraftBody,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { badRequest, HttpError, notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { toPicture, type MediaService } from '../media/index.js';
import { languageOf, type PostsService } from '../posts/index.js';
import type { SeriesService } from '../series/index.js';
import {
  claimDraft,
  countDrafts,
  deleteDraftRow,
  deletePublished,
  insertDraft,
  isOwnSeries,
  lockAuthorDrafts,
  lockDraft,
  markPublishFailed,
  replaceDraftMedia,
  selectDraft,
  selectDraftPage,
  selectLoosePictures,
  selectPictureUses,
  selectPublishedSince,
  updateDraft,
  updateSchedule,
  type DraftFields,
  type DraftRow,
  type DraftSummaryRow,
} from './drafts.sql.js';

/** Every refusal of the drafts routes, each saying what to do instead. */
export const DRAFT_ERRORS = {
  notFound: 'There is no such draft: it may have been published or discarded.',
  tooMany: `You have ${DRAFT_LIMITS.perArtist} drafts, the most an artist may keep: post or discard one to start another.`,
  revisionNeeded:
    'revision is required: send the revision of the draft you last read, so no newer save is overwritten.',
  stale:
    'This draft was changed elsewhere (another tab or device) since you opened it: reload it to see the newest version, then make your change again.',
  publishing: 'This draft is being published right now: wait a moment, then look at your profile.',
  pictureTwice:
    'A picture is listed twice (in pictures or processPictures, or in both): list each picture once, as a finished picture or as a process picture.',
  tooManyProcess: `A draft holds at most ${LIMITS.processPicturesMax} process pictures, as a post does.`,
  pictureNotFound: 'A picture of the draft does not exist (it may have been deleted): upload it again.',
  pictureNotYours: 'A picture of the draft is someone else’s: use pictures you uploaded.',
  pictureAvatar: 'A picture of the draft was uploaded as a profile photo: upload it again as a post picture.',
  pictureInPost: 'A picture of the draft is already in a post: upload it again to use it here.',
  pictureInDraft: 'A picture of the draft is already in another draft: upload it again to use it here.',
  seriesNotYours: 'seriesId must be one of your own series: create the series first, or send null.',
  scheduleEmpty: 'Write something before you schedule this post: a post needs a few words.',
  schedulePast: 'That time has passed: choose a time from the next minute on.',
  scheduleTooFar: `That is more than ${DRAFT_LIMITS.scheduleDaysMax} days ahead: choose a time within a year.`,
  timeZone: 'timeZone must be an IANA time zone name such as Europe/Paris or America/New_York.',
  notScheduled: 'This draft is not scheduled: there is nothing to cancel.',
} as const;

const DEFAULT_RIGHTS: DraftRights = {
  contentWarning: null,
  commentPolicy: 'everyone',
  licence: 'all-rights-reserved',
  aiGenerated: false,
  downloadable: false,
};

/** A claim on a draft older than this belongs to a worker that stopped: another may take it (see publish). */
export const STALE_CLAIM_MS = 5 * 60 * 1000;
/** Drafts one run of the per-minute job publishes at most (the next run goes on). */
const DUE_PER_RUN = 200;

const conflict = (message: string) => new HttpError(409, message);

/** Whether `name` is an IANA time zone this server knows (Europe/Paris, UTC). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function toSummary(row: DraftSummaryRow): DraftSummary {
  return {
    _id: row.id,
    excerpt: row.excerpt,
    cover: row.cover ? toPicture(row.cover) : null,
    pictureCount: row.picture_count,
    seriesId: row.series_id,
    revision: row.revision,
    scheduledAt: row.scheduled_at,
    timeZone: row.time_zone,
    publishError: row.publish_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toDraft(row: DraftRow): Draft {
  return {
    _id: row.id,
    content: row.content,
    language: row.language,
    pictures: row.pictures.map(toPicture),
    processPictures: row.process_pictures.map(toPicture),
    rights: { ...DEFAULT_RIGHTS, ...row.rights },
    seriesId: row.series_id,
    chapter: row.chapter,
    revision: row.revision,
    scheduledAt: row.scheduled_at,
    timeZone: row.time_zone,
    publishError: row.publish_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

interface DraftLog {
  warn: (details: object, message: string) => void;
  info: (details: object, message: string) => void;
}

/**
 * Drafts and scheduled posts (issue 41): the composer's work in progress on the server, private to its author.
 * Publishing one is the posts module's create with its contents (every effect of posting), then its series, then
 * the draft goes.
 */
export function createDraftsService({
  db,
  posts,
  media,
  series,
  log,
  now = () => Date.now(),
}: {
  db: Db;
  posts: PostsService;
  media: MediaService;
  series: SeriesService;
  log: DraftLog;
  now?: () => number;
}) {
  async function read(id: string, authorId: string): Promise<Draft> {
    const row = isUuid(id) ? await selectDraft(db, id, authorId) : undefined;
    if (!row) throw notFound(DRAFT_ERRORS.notFound);
    return toDraft(row);
  }

  /** The pictures, checked: each once, uploaded by the author for a post, in no post, profile or other draft. */
  async function checkPictures(
    tx: Db,
    authorId: string,
    draftId: string | null,
    ids: string[],
  ): Promise<{ ids: string[]; alts: Map<string, string> }> {
    const wanted = ids.map((id) => id.toLowerCase());
    if (new Set(wanted).size !== wanted.length) throw badRequest(DRAFT_ERRORS.pictureTwice);
    if (!wanted.every(isUuid)) throw badRequest(DRAFT_ERRORS.pictureNotFound);
    const uses = new Map((await selectPictureUses(tx, wanted, draftId)).map((use) => [use.id, use]));
    for (const id of wanted) {
      const use = uses.get(id);
      if (!use) throw badRequest(DRAFT_ERRORS.pictureNotFound);
      if (use.owner_id !== authorId) throw badRequest(DRAFT_ERRORS.pictureNotYours);
      if (use.purpose !== 'post' || use.avatar) throw badRequest(DRAFT_ERRORS.pictureAvatar);
      if (use.in_post) throw badRequest(DRAFT_ERRORS.pictureInPost);
      if (use.in_other_draft) throw badRequest(DRAFT_ERRORS.pictureInDraft);
    }
    return { ids: wanted, alts: new Map([...uses].map(([id, use]) => [id, use.alt])) };
  }

  /** The fields a save sets, checked (the series is the author's own). */
  async function fieldsOf(tx: Db, authorId: string, body: SaveDraftBody): Promise<Partial<DraftFields>> {
    const fields: Partial<DraftFields> = {};
    if (body.content !== undefined) fields.content = body.content;
    if (body.language !== undefined) fields.language = languageOf(body.language) ?? null;
    if (body.rights !== undefined) fields.rights = body.rights;
    if (body.seriesId !== undefined) {
      if (body.seriesId !== null && !(isUuid(body.seriesId) && (await isOwnSeries(tx, body.seriesId, authorId))))
        throw badRequest(DRAFT_ERRORS.seriesNotYours);
      fields.seriesId = body.seriesId === null ? null : body.seriesId.toLowerCase();
    }
    if (body.chapter !== undefined) fields.chapter = body.chapter?.trim() || null;
    return fields;
  }

  /**
   * The pictures sent, checked (clear 400s), and their alt texts saved where they changed (kept on the picture, as the
   * composer's uploads do): before the draft's own write, so that a refused request writes nothing of the draft.
   */
  async function checkAndSaveAlts(authorId: string, draftId: string | null, body: SaveDraftBody) {
    const pictures = [...(body.pictures ?? []), ...(body.processPictures ?? [])];
    if (!pictures.length) return;
    if ((body.processPictures?.length ?? 0) > LIMITS.processPicturesMax) throw badRequest(DRAFT_ERRORS.tooManyProcess);
    const { alts } = await checkPictures(
      db,
      authorId,
      draftId,
      pictures.map((picture) => picture.mediaId),
    );
    for (const picture of pictures) {
      if (picture.alt === undefined) continue;
      const id = picture.mediaId.toLowerCase();
      if (alts.get(id) !== picture.alt.trim()) await media.editAlt(authorId, id, picture.alt);
    }
  }

  const mapPictureTaken = (error: unknown): never => {
    if (isUniqueViolation(error, 'draft_media_media_key')) throw badRequest(DRAFT_ERRORS.pictureInDraft);
    throw error;
  };

  /** Publishing failed for a reason the artist must fix (a 4xx of the posts module): kept on the draft. */
  const artistMustFix = (error: unknown): error is HttpError =>
    error instanceof HttpError && error.statusCode >= 400 && error.statusCode < 500;

  /**
   * Publishes a claimed draft: the posts module's create with its contents, then its series, then the draft goes.
   * A claim taken over from a worker that stopped first looks for the post that worker may have written.
   */
  async function publishClaimed(row: DraftRow & { reclaimed: boolean; claimed_at: string }): Promise<string> {
    const mediaIds = row.pictures.map((picture) => picture.id);
    const processMediaIds = row.process_pictures.map((picture) => picture.id);
    const content = row.content.trim();
    let postId = row.reclaimed
      ? await selectPublishedSince(db, row.author_id, row.claimed_at, content, mediaIds[0])
      : undefined;
    if (!postId) {
      try {
        const post = await posts.create(row.author_id, {
          content: row.content,
          language: row.language,
          mediaIds,
          ...(processMediaIds.length ? { processMediaIds } : {}),
          ...row.rights,
        });
        postId = (JSON.parse(post.text) as Post)._id;
      } catch (error) {
        if (artistMustFix(error)) await markPublishFailed(db, row.id, error.message);
        // Anything else (the database away): the claim stays, and goes stale, for the next run to take over.
        throw error;
      }
    }
    if (row.series_id) {
      await series
        .addWork(row.author_id, row.series_id, { postId, ...(row.chapter ? { chapter: row.chapter } : {}) })
        .catch((error: unknown) => {
          // Already in it (a publishing taken over), or the series is full: the post stands.
          log.warn({ err: error, draftId: row.id, postId }, 'a published draft was not added to its series');
        });
    }
    await deletePublished(db, row.id);
    return postId;
  }

  const staleBefore = () => new Date(now() - STALE_CLAIM_MS);

  return {
    read,

    async list(authorId: string, query: { cursor?: string | undefined; limit?: number | undefined }) {
      const { page, nextCursor } = await selectDraftPage(db, authorId, {
        cursor: query.cursor,
        limit: query.limit ?? PAGE_LIMITS.default,
        excerpt: DRAFT_EXCERPT_MAX,
      });
      return { drafts: page.map(toSummary), nextCursor };
    },

    async create(authorId: string, body: SaveDraftBody): Promise<Draft> {
      const ids = body.pictures?.map((picture) => picture.mediaId) ?? [];
      const processIds = body.processPictures?.map((picture) => picture.mediaId) ?? [];
      await checkAndSaveAlts(authorId, null, body);
      const id = await db
        .transaction(async (tx) => {
          await lockAuthorDrafts(tx, authorId);
          if ((await countDrafts(tx, authorId)) >= DRAFT_LIMITS.perArtist) throw badRequest(DRAFT_ERRORS.tooMany);
          const { ids: all } = await checkPictures(tx, authorId, null, [...ids, ...processIds]);
          const fields = await fieldsOf(tx, authorId, body);
          const draftId = await insertDraft(tx, authorId, {
            content: fields.content ?? '',
            language: fields.language ?? null,
            rights: fields.rights ?? DEFAULT_RIGHTS,
            seriesId: fields.seriesId ?? null,
            chapter: fields.chapter ?? null,
          });
          await replaceDraftMedia(tx, draftId, all.slice(0, ids.length));
          await replaceDraftMedia(tx, draftId, all.slice(ids.length), true);
          return draftId;
        })
        .catch(mapPictureTaken);
      return read(id, authorId);
    },

    /** A save of the whole draft as the composer has it; refused (409) when it changed since `revision`. */
    async save(authorId: string, id: string, body: SaveDraftBody): Promise<Draft> {
      if (!isUuid(id)) throw notFound(DRAFT_ERRORS.notFound);
      if (body.revision === undefined) throw badRequest(DRAFT_ERRORS.revisionNeeded);
      const current = await selectDraft(db, id, authorId);
      if (!current) throw notFound(DRAFT_ERRORS.notFound);
      if (current.revision !== body.revision) throw conflict(DRAFT_ERRORS.stale);
      await checkAndSaveAlts(authorId, id, body);
      await db
        .transaction(async (tx) => {
          const current = await lockDraft(tx, id, authorId);
          if (!current) throw notFound(DRAFT_ERRORS.notFound);
          if (current.revision !== body.revision) throw conflict(DRAFT_ERRORS.stale);
          if (current.publishing) throw conflict(DRAFT_ERRORS.publishing);
          const fields = await fieldsOf(tx, authorId, body);
          if (body.pictures !== undefined || body.processPictures !== undefined) {
            // Both lists as they will be (a list left out stays as it is): a picture is in one of them at most.
            const kept = await selectDraft(tx, id, authorId);
            const finished =
              body.pictures?.map((picture) => picture.mediaId) ?? kept?.pictures.map((picture) => picture.id) ?? [];
            const process =
              body.processPictures?.map((picture) => picture.mediaId) ??
              kept?.process_pictures.map((picture) => picture.id) ??
              [];
            const { ids: all } = await checkPictures(tx, authorId, id, [...finished, ...process]);
            // A picture taken out is attached to nothing now: the media sweep deletes it after its day. The process
            // pictures first: a picture moved from one list to the other leaves its old place before taking its new.
            if (body.processPictures !== undefined) await replaceDraftMedia(tx, id, [], true);
            if (body.pictures !== undefined) await replaceDraftMedia(tx, id, all.slice(0, finished.length));
            if (body.processPictures !== undefined) await replaceDraftMedia(tx, id, all.slice(finished.length), true);
          }
          await updateDraft(tx, id, fields);
        })
        .catch(mapPictureTaken);
      return read(id, authorId);
    },

    /** Discards the draft with its pictures (rows and files), but any a post or another draft shows now. */
    async discard(authorId: string, id: string): Promise<void> {
      const pictures = isUuid(id) ? await deleteDraftRow(db, id, authorId) : undefined;
      if (!pictures) throw notFound(DRAFT_ERRORS.notFound);
      for (const mediaId of await selectLoosePictures(db, pictures)) await media.deleteMedia(mediaId);
    },

    async schedule(authorId: string, id: string, body: ScheduleDraftBody): Promise<Draft> {
      if (!isUuid(id)) throw notFound(DRAFT_ERRORS.notFound);
      const parsed = Date.parse(body.at);
      if (Number.isNaN(parsed))
        throw badRequest('at must be a date and time with its offset, such as 2026-12-08T08:00:00Z');
      // Minutes are what the composer offers and what the per-minute job keeps.
      const at = new Date(Math.floor(parsed / 60_000) * 60_000);
      if (at.getTime() <= now()) throw badRequest(DRAFT_ERRORS.schedulePast);
      if (at.getTime() > now() + DRAFT_LIMITS.scheduleDaysMax * 86_400_000)
        throw badRequest(DRAFT_ERRORS.scheduleTooFar);
      if (!isTimeZone(body.timeZone)) throw badRequest(DRAFT_ERRORS.timeZone);
      await db.transaction(async (tx) => {
        const current = await lockDraft(tx, id, authorId);
        if (!current) throw notFound(DRAFT_ERRORS.notFound);
        if (body.revision !== undefined && current.revision !== body.revision) throw conflict(DRAFT_ERRORS.stale);
        if (current.publishing) throw conflict(DRAFT_ERRORS.publishing);
        const row = await selectDraft(tx, id, authorId);
        if (!row?.content.trim()) throw badRequest(DRAFT_ERRORS.scheduleEmpty);
        await updateSchedule(tx, id, { at, timeZone: body.timeZone });
      });
      return read(id, authorId);
    },

    async unschedule(authorId: string, id: string): Promise<Draft> {
      if (!isUuid(id)) throw notFound(DRAFT_ERRORS.notFound);
      await db.transaction(async (tx) => {
        const current = await lockDraft(tx, id, authorId);
        if (!current) throw notFound(DRAFT_ERRORS.notFound);
        if (current.publishing) throw conflict(DRAFT_ERRORS.publishing);
        const row = await selectDraft(tx, id, authorId);
        if (!row?.scheduled_at) throw badRequest(DRAFT_ERRORS.notScheduled);
        await updateSchedule(tx, id, null);
      });
      return read(id, authorId);
    },

    /** Publishes the draft now (Post from the drafts list): the post's id. */
    async publish(authorId: string, id: string): Promise<string> {
      if (!isUuid(id)) throw notFound(DRAFT_ERRORS.notFound);
      const row = await claimDraft(db, { id, authorId }, staleBefore());
      if (!row) {
        if (await selectDraft(db, id, authorId)) throw conflict(DRAFT_ERRORS.publishing);
        throw notFound(DRAFT_ERRORS.notFound);
      }
      return publishClaimed(row);
    },

    /**
     * The per-minute job's work: publishes every scheduled draft that is due, one claim at a time (two runs at
     * once never take the same draft). A draft the artist must fix keeps its reason and is skipped from then on.
     */
    async publishDue(): Promise<number> {
      let published = 0;
      for (let round = 0; round < DUE_PER_RUN; round++) {
        const row = await claimDraft(db, 'due', staleBefore());
        if (!row) break;
        try {
          await publishClaimed(row);
          published++;
        } catch (error) {
          if (!artistMustFix(error)) throw error;
          log.info({ draftId: row.id, reason: error.message }, 'a scheduled post could not be published');
        }
      }
      return published;
    },
  };
}

export type DraftsService = ReturnType<typeof createDraftsService>;
