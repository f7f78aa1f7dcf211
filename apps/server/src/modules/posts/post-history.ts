/**
 * A work's history (issue 41, "fixing a published work", docs/post-history.md). Each edit that changes something
 * keeps a revision (post_revisions, migration 0045): the fields it changed, their values before and after (the words
 * and the rights), and the pictures and process pictures before when it changed them (post_revision_media, with the
 * alt text each had then). A picture an edit takes out is no longer deleted: the revision keeps it for the author,
 * and /media/ serves it to nobody while no post shows it (media's fileRights); the author sees it through
 * `keptPicture`, with their token. Deleting the post (or the account) deletes its revisions and the pictures they
 * alone kept.
 */
import {
  ERRORS,
  formatDate,
  PAGE_LIMITS,
  POST_HISTORY_ERRORS,
  type KeptPicture,
  type PostHistoryPage,
  type PostRevision,
  type PostRevisionField,
  type PostRevisionValues,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { jpegFor, type MediaStorage } from '../media/index.js';
import {
  selectEditablePost,
  selectHistoryAccess,
  selectKeptPicture,
  selectPostPicturesWithAlt,
  selectRevisionPage,
  type EditablePost,
  type NewRevision,
  type PostChanges,
  type RevisionRow,
} from './posts.sql.js';

/** What an edit may change, as it was before the edit (read under the post's lock, before anything is written). */
export interface EditSnapshot {
  post: EditablePost;
  pictures: { id: string; alt: string }[];
  process: { id: string; alt: string }[];
}

export async function snapshotForEdit(tx: Db, postId: string): Promise<EditSnapshot> {
  const post = await selectEditablePost(tx, postId);
  if (!post) throw notFound(ERRORS.postNotFound);
  const shown = await selectPostPicturesWithAlt(tx, postId);
  const pick = (kind: 'picture' | 'process') =>
    shown.filter((row) => row.kind === kind).map(({ id, alt }) => ({ id, alt }));
  return { post, pictures: pick('picture'), process: pick('process') };
}

const WORD_AND_RIGHT_FIELDS = [
  'content',
  'language',
  'contentWarning',
  'commentPolicy',
  'licence',
  'aiGenerated',
  'downloadable',
] as const satisfies readonly (keyof EditablePost & PostRevisionField)[];

const sameIds = (a: readonly { id: string }[], b: readonly string[]) =>
  a.length === b.length && a.every((picture, i) => picture.id === b[i]);

/** Whether a list keeps its pictures but one of them has a new alt text (`alts`: the edit's, by lower-case id). */
const altChanged = (list: readonly { id: string; alt: string }[], alts: ReadonlyMap<string, string>) =>
  list.some((picture) => alts.has(picture.id) && alts.get(picture.id) !== picture.alt);

/**
 * What an edit really changes, against the post before it: the changes to write (only the fields whose value
 * differs; `tags` with the content) and the revision to keep; undefined when it changes nothing (no revision, and
 * the post does not say "edited"). `pictures` and `process` are the edit's new lists, when it sets them; `alts` its
 * new alt texts by picture id (cleaned): a list whose pictures stay but whose alt texts change is a change of that
 * list (its pictures before are kept with the alt texts they had).
 */
export function revisionOf(
  before: EditSnapshot,
  changes: PostChanges,
  pictures: readonly string[] | undefined,
  process: readonly string[] | undefined,
  alts: ReadonlyMap<string, string> = new Map(),
): { changes: PostChanges; revision: Omit<NewRevision, 'postId'> } | undefined {
  const written: PostChanges = {};
  const changed: PostRevisionField[] = [];
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const field of WORD_AND_RIGHT_FIELDS) {
    const value = changes[field];
    if (value === undefined || value === before.post[field]) continue;
    changed.push(field);
    was[field] = before.post[field];
    now[field] = value;
    Object.assign(written, { [field]: value });
  }
  if (written.content !== undefined) written.tags = changes.tags;
  const earlier: NewRevision['earlier'] = [];
  let pictureCounts: NewRevision['pictureCounts'];
  if ((pictures && !sameIds(before.pictures, pictures)) || altChanged(before.pictures, alts)) {
    changed.push('pictures');
    earlier.push({ kind: 'picture', pictures: before.pictures });
    pictureCounts = { before: before.pictures.length, after: (pictures ?? before.pictures).length };
  }
  if ((process && !sameIds(before.process, process)) || altChanged(before.process, alts)) {
    changed.push('processPictures');
    earlier.push({ kind: 'process', pictures: before.process });
    // The process pictures' counts ride in the jsonb (the columns are the finished pictures').
    was.processPictures = before.process.length;
    now.processPictures = (process ?? before.process).length;
  }
  if (changed.length === 0) return undefined;
  return {
    changes: written,
    revision: { changed, before: was, after: now, earlier, ...(pictureCounts ? { pictureCounts } : {}) },
  };
}

/** The words and rights of a revision's jsonb, as the API names them (nothing else it holds). */
function valuesOf(stored: Record<string, unknown>): PostRevisionValues {
  const values: Record<string, unknown> = {};
  for (const field of WORD_AND_RIGHT_FIELDS) if (field in stored) values[field] = stored[field];
  return values as PostRevisionValues;
}

/** The API path of a kept picture's JPEG (the author's, with their token). */
const keptPictureUrl = (postId: string, mediaId: string, size: 'thumb' | 'large') =>
  `/api/posts/${postId}/history/pictures/${mediaId}?size=${size}`;

function toRevision(row: RevisionRow, postId: string, author: boolean): PostRevision {
  const earlier = (kind: 'picture' | 'process'): KeptPicture[] =>
    (row.earlier ?? [])
      .filter((kept) => kept.kind === kind)
      .map((kept) => ({
        _id: kept.media.id,
        alt: kept.alt,
        width: kept.media.width,
        height: kept.media.height,
        placeholder: kept.media.placeholder,
        thumbUrl: keptPictureUrl(postId, kept.media.id, 'thumb'),
        url: keptPictureUrl(postId, kept.media.id, 'large'),
        shownNow: kept.shown_now,
      }));
  const changed = row.changed as PostRevisionField[];
  return {
    _id: row.id,
    createdAt: formatDate(new Date(row.created_at)),
    changed,
    before: valuesOf(row.before),
    after: valuesOf(row.after),
    pictures: changed.includes('pictures')
      ? {
          before: Number(row.picture_count_before ?? 0),
          after: Number(row.picture_count_after ?? 0),
          ...(author ? { earlier: earlier('picture') } : {}),
        }
      : null,
    processPictures: changed.includes('processPictures')
      ? {
          before: Number(row.before.processPictures ?? 0),
          after: Number(row.after.processPictures ?? 0),
          ...(author ? { earlier: earlier('process') } : {}),
        }
      : null,
  };
}

/** The history's reads: its pages (for anyone who sees the post) and the kept pictures' files (its author's). */
export function createPostHistory({ db, storage }: { db: Db; storage: MediaStorage }) {
  /** The post's author, when the viewer may see the post; a 404 otherwise (as if it had no history). */
  async function access(postId: string, viewerId: string | null): Promise<{ authorId: string }> {
    if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
    const row = await selectHistoryAccess(db, postId, viewerId);
    if (!row?.visible) throw notFound(ERRORS.postNotFound);
    return { authorId: row.author_id };
  }

  return {
    /** A page of the post's revisions, newest first; the earlier pictures for its author only. */
    async page(
      postId: string,
      viewerId: string | null,
      query: { cursor?: string | undefined; limit?: number | undefined },
    ): Promise<PostHistoryPage> {
      const { authorId } = await access(postId, viewerId);
      const author = viewerId !== null && viewerId === authorId;
      const id = postId.toLowerCase();
      const { page, nextCursor } = await selectRevisionPage(db, id, {
        cursor: query.cursor,
        limit: query.limit ?? PAGE_LIMITS.default,
        withPictures: author,
      });
      return { revisions: page.map((row) => toRevision(row, id, author)), nextCursor };
    },

    /**
     * The JPEG of a picture one of the post's revisions keeps, for the post's author: 404 when the post is not
     * there for them or its history keeps no such picture, 403 for anyone else.
     */
    async keptPicture(postId: string, mediaId: string, viewerId: string, size: 'thumb' | 'large') {
      const { authorId } = await access(postId, viewerId);
      if (viewerId !== authorId) throw new HttpError(403, POST_HISTORY_ERRORS.keptPictureNotAuthor);
      const row = isUuid(mediaId) ? await selectKeptPicture(db, postId, mediaId) : undefined;
      const variant = row && jpegFor(row.variants, size === 'large' ? 1080 : 320);
      if (!variant) throw notFound(POST_HISTORY_ERRORS.keptPictureNotFound);
      const found = await storage.read(variant.file);
      if (found.status !== 'ok') throw notFound(POST_HISTORY_ERRORS.keptPictureNotFound);
      return found.file;
    },
  };
}

export type PostHistory = ReturnType<typeof createPostHistory>;
