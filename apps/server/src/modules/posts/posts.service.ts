import {
  canonicalLanguage,
  CONTENT_WARNINGS,
  ERRORS,
  LIMITS,
  POST_LANGUAGE_ERRORS,
  RIGHTS_ERRORS,
  type CreatePostBody,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { primaryOnly, type ReadRouting } from '../../db/replicas.js';
import { badRequest, notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { extractHashtags } from '../../lib/hashtags.js';
import { extractMentions } from '../../lib/mentions.js';
import { notifyMentions } from '../../events/notification-rules.js';
import type { SearchCache } from '../../lib/search-cache.js';
import type { JsonText } from '../../lib/json-text.js';
import { deletePostRow, insertPost, setBookmarkRow, type PostRights } from '../../actions/posts.js';
import { MEDIA_NOT_FOUND, type MediaService } from '../media/index.js';
import {
  lockPostRow,
  reactToPost,
  replacePostMedia,
  updatePostPictureAlts,
  insertRevision,
  selectKeptPictureIds,
  selectUnusedPictures,
  selectPostHiddenFrom,
  selectPostMediaIds,
  selectProcessMediaIds,
  selectReportable,
  updatePostRow,
  type PostChanges,
} from './posts.sql.js';
import type { PostCache, SearchHit } from './posts.cache.js';
import { revisionOf, snapshotForEdit } from './post-history.js';
import { createPostReader } from './posts.reader.js';
import type { ViewerStateCache } from './viewer-state.js';
import type { RelationsCache } from '../safety/index.js';
import {
  attachableProcessPictures,
  editProcessPictures,
  isProcessPictureInUse,
  mapProcessPictureInUse,
} from './process-pictures.js';

export type { PostPageResult } from './posts.reader.js';

function cleanContent(content: string): string {
  const trimmed = content.trim();
  if (!trimmed) throw badRequest(ERRORS.postContentEmpty);
  return trimmed;
}

type RightsInput = Pick<CreatePostBody, keyof PostRights>;

/**
 * The language a write says its text is in (issue 43), in its canonical form (`EN-us` → `en-US`): undefined when it
 * says nothing, null when it is not said (an edit's null clears it). A malformed tag is refused.
 */
export function languageOf(language: string | null | undefined): string | null | undefined {
  if (language === undefined || language === null) return language;
  const canonical = canonicalLanguage(language);
  if (!canonical) throw badRequest(POST_LANGUAGE_ERRORS.malformed);
  return canonical;
}

/**
 * The rights and warning fields a write sets (only those sent). A warning is trimmed, the offered ones
 * ("nudity", "blood", "flashing") in lower case; an empty one is refused (null means none).
 */
function rightsChanges(input: RightsInput): Partial<PostRights> {
  const changes: Partial<PostRights> = {};
  if (input.contentWarning !== undefined) {
    if (input.contentWarning === null) changes.contentWarning = null;
    else {
      const warning = input.contentWarning.trim();
      if (!warning) throw badRequest(RIGHTS_ERRORS.contentWarningEmpty);
      const offered = CONTENT_WARNINGS.find((name) => name === warning.toLowerCase());
      changes.contentWarning = offered ?? warning;
    }
  }
  if (input.commentPolicy !== undefined) changes.commentPolicy = input.commentPolicy;
  if (input.licence !== undefined) changes.licence = input.licence;
  if (input.aiGenerated !== undefined) changes.aiGenerated = input.aiGenerated;
  if (input.downloadable !== undefined) changes.downloadable = input.downloadable;
  return changes;
}

/** Why a post's list of pictures is refused (400s; an unknown picture is a 404, MEDIA_NOT_FOUND). */
export const PICTURE_ERRORS = {
  both: 'Send mediaIds or mediaId, not both: mediaIds is the whole list of pictures, mediaId one picture.',
  tooMany: `A post holds at most ${LIMITS.postPicturesMax} pictures.`,
  duplicate: (id: string) => `The picture ${id} is listed twice in mediaIds: a post shows each picture once.`,
  notOwned: (id: string) => `The picture ${id} belongs to someone else: use a picture you uploaded.`,
  avatar: (id: string) => `The picture ${id} was uploaded as an avatar; upload it again with purpose=post.`,
} as const;

/** Why an edit's alt texts are refused (issue 41). */
export const ALT_ERRORS = {
  twice: (id: string) => `The picture ${id} is listed twice in alts: give each picture one alt text.`,
  notShown: (id: string) =>
    `The picture ${id} in alts is not one of this post's pictures or process pictures after the edit: list only pictures the post shows.`,
} as const;

/** The pictures a write asks for: the new list, or undefined when it leaves them as they are. */
function requestedPictures(input: { mediaId?: string | null | undefined; mediaIds?: string[] | undefined }) {
  if (input.mediaIds !== undefined && input.mediaId !== undefined) throw badRequest(PICTURE_ERRORS.both);
  if (input.mediaIds !== undefined) return input.mediaIds;
  if (input.mediaId !== undefined) return input.mediaId === null ? [] : [input.mediaId];
  return undefined;
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/** A like of a work from another server (issue 39), or its undoing, to send to its author's server. */
export interface RemoteLikeChange {
  userId: string;
  postId: string;
  noteIri: string;
  /** The like's time in milliseconds: the Like's id and its Undo's are made from it. */
  likeKey: string;
  liked: boolean;
}
export type RemoteLikeChanged = (change: RemoteLikeChange) => Promise<void>;

/** Posts: every read (see createPostReader) and every write, with its rules and its errors. */
export function createPostsService({
  db,
  reads = primaryOnly(db),
  media,
  cache,
  searches,
  relations,
  viewerStates,
  remoteLikeChanged = async () => {},
}: {
  db: Db;
  /** Where the pages' reads may go (db/replicas.ts, issue 25). */
  reads?: ReadRouting;
  media: MediaService;
  cache: PostCache;
  searches: SearchCache<SearchHit>;
  /** Each viewer's blocks and mutes, which lists of posts apply in memory (issue 23). */
  relations: RelationsCache;
  /** Each viewer's reactions, bookmarks and follows in memory (issue 26), forgotten here when they change. */
  viewerStates?: ViewerStateCache;
  /** A like of a work from another server, or its undoing: the federation module's port sends it there (issue 39). */
  remoteLikeChanged?: RemoteLikeChanged;
}) {
  const reader = createPostReader({ db, reads, cache, searches, relations, viewerStates });
  const { getPost } = reader;

  /** Locks the post row for the rest of the transaction: reactions to one post take turns. */
  async function lockPost(tx: Db, postId: string) {
    if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
    const row = await lockPostRow(tx, postId);
    if (!row) throw notFound(ERRORS.postNotFound);
    return row;
  }

  /**
   * The pictures `userId` may show in a post, in the order asked, as their ids: at most
   * LIMITS.postPicturesMax, none twice, each an existing post picture of theirs (one read for all).
   * The first refused one, in list order, says why. Whether one is in another post is the write's to
   * find (post_media_media_key), so that two posts racing for one picture cannot both have it.
   */
  async function attachablePictures(userId: string, requested: string[], database: Db): Promise<string[]> {
    if (requested.length > LIMITS.postPicturesMax) throw badRequest(PICTURE_ERRORS.tooMany);
    // Ids are UUIDs, which the database answers in lower case.
    const ids = requested.map((id) => id.toLowerCase());
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (seen.has(id)) throw badRequest(PICTURE_ERRORS.duplicate(requested[i]!));
      seen.add(id);
    });
    const rows = new Map((await media.findByIds(ids, database)).map((row) => [row.id, row]));
    ids.forEach((id, i) => {
      const row = rows.get(id);
      if (!row) throw notFound(MEDIA_NOT_FOUND);
      if (row.ownerId !== userId) throw badRequest(PICTURE_ERRORS.notOwned(requested[i]!));
      if (row.purpose !== 'post') throw badRequest(PICTURE_ERRORS.avatar(requested[i]!));
    });
    return ids;
  }

  const mapPictureInUse = (error: unknown): never => {
    if (isUniqueViolation(error, 'post_media_media_key')) throw badRequest(ERRORS.pictureInUse);
    if (isProcessPictureInUse(error)) mapProcessPictureInUse(error);
    if (isForeignKeyViolation(error, 'post_process_pictures_media_id_media_id_fk')) throw notFound(MEDIA_NOT_FOUND);
    // Deleted between the owner's check and the write.
    if (isForeignKeyViolation(error, 'post_media_media_id_media_id_fk')) throw notFound(MEDIA_NOT_FOUND);
    throw error;
  };

  /**
   * What an edit's list of pictures changes, under the post's lock: the checked new list and the
   * pictures it drops; undefined when it is the list the post has.
   */
  async function pictureChange(tx: Db, userId: string, postId: string, requested: string[]) {
    const wanted = await attachablePictures(userId, requested, tx);
    const current = await selectPostMediaIds(tx, postId);
    if (sameList(current, wanted)) return undefined;
    return { wanted, removed: current.filter((id) => !wanted.includes(id)) };
  }

  /** Deletes pictures no post shows any more (rows, then files), after the write that let go of them. */
  async function deletePictures(mediaIds: string[]): Promise<void> {
    for (const id of mediaIds) await media.deleteMedia(id);
  }

  return {
    ...reader,

    /**
     * A new post with its pictures (mediaIds, or the legacy single mediaId), all written in one
     * statement: a refused picture leaves no post behind.
     */
    async create(
      userId: string,
      input: {
        content: string;
        mediaId?: string | null | undefined;
        mediaIds?: string[] | undefined;
        processMediaIds?: string[] | undefined;
        /** The language of its text (issue 43): a language tag, canonicalised here; null or left out: not said. */
        language?: string | null | undefined;
      } & RightsInput,
    ): Promise<JsonText> {
      const content = cleanContent(input.content);
      const language = languageOf(input.language) ?? null;
      const rights = rightsChanges(input);
      const mediaIds = await attachablePictures(userId, requestedPictures(input) ?? [], db);
      const processMediaIds = await attachableProcessPictures(media, db, userId, input.processMediaIds ?? [], mediaIds);
      const tags = extractHashtags(content);
      const { id: postId, time } = await insertPost(db, {
        authorId: userId,
        content,
        tags,
        mediaIds,
        processMediaIds,
        rights,
        language,
      }).catch(mapPictureInUse);
      // The Home timelines kept here take it in now, not when its event comes back (issue 26).
      viewerStates?.published({ id: postId, authorId: userId, time, tags });
      // After the post's own statement, which holds no transaction to join: a mention is a notification,
      // not part of the post, and notifyMentions never notifies twice.
      await notifyMentions(db, { actorId: userId, usernames: extractMentions(content), postId }).catch((error) => {
        // The post was deleted meanwhile: nothing to notify of (getPost answers its 404).
        if (!isForeignKeyViolation(error, 'notifications_post_id_posts_id_fk')) throw error;
      });
      searches.clear();
      return getPost(postId, userId);
    },

    /**
     * Content, its language, the pictures, the process pictures and the rights change. mediaIds is the whole new
     * list (add, remove, reorder); mediaId one picture in place of all, null none. An edit that changes something
     * keeps a revision (issue 41, post-history.ts) and the post says "edited"; a picture taken out is kept for the
     * author by that revision, not deleted.
     */
    async edit(
      userId: string,
      postId: string,
      data: {
        content?: string;
        mediaId?: string | null;
        mediaIds?: string[];
        processMediaIds?: string[];
        /** New alt texts of pictures the post shows after the edit (issue 41): an alt-only change is an edit. */
        alts?: { mediaId: string; alt: string }[];
        /** The language of its text (issue 43); null: not said any more. A change of it alone is an edit. */
        language?: string | null;
      } & RightsInput,
    ): Promise<JsonText> {
      const rights = rightsChanges(data);
      const language = languageOf(data.language);
      const alts = new Map<string, string>();
      for (const { mediaId, alt } of data.alts ?? []) {
        const id = mediaId.toLowerCase();
        if (alts.has(id)) throw badRequest(ALT_ERRORS.twice(mediaId));
        alts.set(id, alt.trim());
      }
      const edited = await db
        .transaction(async (tx) => {
          const post = await lockPost(tx, postId);
          if (post.authorId !== userId) throw badRequest(ERRORS.editPostNotOwner);
          // What the edit changes from, before anything is written (the history's "before").
          const before = await snapshotForEdit(tx, postId);
          const requested = requestedPictures(data);
          const changes: PostChanges = { ...rights, ...(language !== undefined ? { language } : {}) };
          if (data.content !== undefined) {
            changes.content = cleanContent(data.content);
            changes.tags = extractHashtags(changes.content);
          }
          const pictures = requested && (await pictureChange(tx, userId, postId, requested));
          if (pictures) await replacePostMedia(tx, postId, pictures.wanted);
          // The process pictures (issue 41): their own list, written by their own function.
          const process =
            data.processMediaIds &&
            (await editProcessPictures(tx, media, {
              userId,
              postId,
              requested: data.processMediaIds,
              finished: requested && (pictures?.wanted ?? requested),
            }));
          // The alt texts (issue 41): of pictures the post shows after the edit, only those that differ.
          const shown = new Map(
            [
              ...(pictures?.wanted ?? (requested ? requested : before.pictures.map((p) => p.id))),
              ...(process?.wanted ?? (data.processMediaIds ? data.processMediaIds : before.process.map((p) => p.id))),
            ].map((id) => [id.toLowerCase(), true]),
          );
          for (const id of alts.keys()) if (!shown.has(id)) throw badRequest(ALT_ERRORS.notShown(id));
          const oldAlt = new Map([...before.pictures, ...before.process].map((p) => [p.id, p.alt]));
          const newAlts = new Map([...alts].filter(([id, alt]) => oldAlt.get(id) !== alt));
          // Only what really differs is written and kept; an edit that changes nothing leaves no trace.
          const edit = revisionOf(before, changes, pictures?.wanted, process?.wanted, newAlts);
          if (newAlts.size > 0) await updatePostPictureAlts(tx, newAlts);
          if (!edit) return false;
          await insertRevision(tx, { postId, ...edit.revision });
          await updatePostRow(tx, postId, edit.changes, true);
          // Only the people this edit adds are notified: the others were when they were written.
          if (edit.changes.content !== undefined) {
            await notifyMentions(tx, { actorId: userId, usernames: extractMentions(edit.changes.content), postId });
          }
          return true;
        })
        .catch(mapPictureInUse);
      if (edited) {
        cache.invalidate(postId);
        // A picture taken out is public to nobody now, one put back public again (issue 41): this process forgets
        // what it remembers of the post's pictures' files before it answers; the others on the post's event.
        media.forgetPost(postId);
        searches.clear();
        if (data.content !== undefined) viewerStates?.retagged();
      }
      return getPost(postId, userId);
    },

    /** Deletes the post with its reactions, comments and bookmarks (counters kept exact), then its pictures. */
    async remove(userId: string, postId: string): Promise<void> {
      const mediaIds = await db.transaction(async (tx) => {
        const post = await lockPost(tx, postId);
        if (post.authorId !== userId) throw badRequest(ERRORS.deletePostNotOwner);
        const pictures = [
          ...(await selectPostMediaIds(tx, postId)),
          ...(await selectProcessMediaIds(tx, postId)),
          // The pictures its history kept (issue 41): they go with it.
          ...(await selectKeptPictureIds(tx, postId)),
        ];
        await deletePostRow(tx, postId, userId);
        return [...new Set(pictures)];
      });
      cache.invalidate(postId);
      searches.clear();
      // Those another post shows, or another post's history keeps (a picture moved), stay.
      await deletePictures(await selectUnusedPictures(db, mediaIds));
    },

    /**
     * Like: refused when already liked; otherwise replaces a dislike and adds one to likeCount.
     * Dislike (the heart's "unlike"): refused when likeCount is 0 or already disliked; otherwise it
     * replaces the viewer's like (likeCount − 1) and records the dislike. likeCount is always the
     * number of like rows, dislikeCount the number of dislike rows.
     */
    async react(userId: string, postId: string, kind: 'like' | 'dislike'): Promise<JsonText> {
      if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
      // A post not there for them (hidden, removed, a blocked pair's) reads as not found: see reactToPost.
      const outcome = await reactToPost(db, postId, userId, kind);
      if (!outcome.found) throw notFound(ERRORS.postNotFound);
      if (!outcome.changed) {
        throw badRequest(
          kind === 'like'
            ? ERRORS.alreadyLiked
            : Number(outcome.like_count) === 0
              ? ERRORS.likeBelowZero
              : ERRORS.alreadyDisliked,
        );
      }
      // A like changes only the post's counts and its newest reactors: the cached rest of it stays.
      cache.reactorsChanged(postId);
      viewerStates?.forget([userId]);
      // A work from another server: its author's server hears a like, or its undoing (a dislike that replaced a like);
      // a dislike that undid no like is ours alone.
      if (outcome.note_iri && outcome.like_key) {
        await remoteLikeChanged({
          userId,
          postId: postId.toLowerCase(),
          noteIri: outcome.note_iri,
          likeKey: outcome.like_key,
          liked: kind === 'like',
        });
      }
      return outcome.post ? reader.present(outcome.post, userId) : getPost(postId, userId);
    },

    /** Whether `userId` may report the post (they see it, or would but for their own block of its author). */
    reportable(postId: string, userId: string): Promise<boolean> {
      return isUuid(postId) ? selectReportable(db, postId, userId) : Promise.resolve(false);
    },

    async bookmark(userId: string, postId: string, add: boolean): Promise<void> {
      if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
      // A blocked pair's post too (selectPostHiddenFrom covers blocks).
      if (add && (await selectPostHiddenFrom(db, postId, userId))) throw notFound(ERRORS.postNotFound);
      const outcome = await setBookmarkRow(db, userId, postId, add);
      if (!outcome.found) throw notFound(ERRORS.postNotFound);
      if (!outcome.changed) throw badRequest(add ? ERRORS.alreadyBookmarked : ERRORS.notBookmarked);
      viewerStates?.forget([userId]);
    },
  };
}

export type PostsService = ReturnType<typeof createPostsService>;
