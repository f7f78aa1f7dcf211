/**
 * A work's process pictures (issue 41): the sketch, the lines, the flats… shown beside the finished pictures, in
 * the artist's order, at most LIMITS.processPicturesMax. They are uploaded as the pictures are (POST /api/media,
 * purpose post: the same checks, renditions and alt text) and kept in their own table (post_process_pictures,
 * migration 0043), so that post_media keeps meaning the finished pictures. A picture is in one post only, as a
 * picture or as a process picture. What is written here; the posts service calls it inside its writes.
 */
import { ERRORS, LIMITS } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../lib/http-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { MEDIA_NOT_FOUND, type MediaService } from '../media/index.js';
import { replaceProcessPictures, selectProcessMediaIds } from './posts.sql.js';

/** Why a list of process pictures is refused (400s; an unknown picture is a 404, MEDIA_NOT_FOUND). */
export const PROCESS_ERRORS = {
  tooMany: `A work holds at most ${LIMITS.processPicturesMax} process pictures.`,
  duplicate: (id: string) =>
    `The picture ${id} is listed twice in processMediaIds: a work shows each process picture once.`,
  alsoFinished: (id: string) =>
    `The picture ${id} is in both mediaIds and processMediaIds: a picture is either a finished picture or a process picture.`,
  notOwned: (id: string) => `The process picture ${id} belongs to someone else: use a picture you uploaded.`,
  avatar: (id: string) => `The process picture ${id} was uploaded as an avatar; upload it again with purpose=post.`,
} as const;

/** True when a write failed because a picture is already a finished or process picture of a post. */
export function isProcessPictureInUse(error: unknown): boolean {
  return (
    isUniqueViolation(error, 'post_process_pictures_media_key') || isUniqueViolation(error, 'post_pictures_one_post')
  );
}

/** Maps a write's refusal of a process picture to the API's 400 (in use elsewhere); rethrows anything else. */
export function mapProcessPictureInUse(error: unknown): never {
  if (isProcessPictureInUse(error)) throw badRequest(ERRORS.pictureInUse);
  throw error;
}

/**
 * The process pictures `userId` may show, in the order asked, as lower-case ids: at most
 * LIMITS.processPicturesMax, none twice, none among the same write's finished pictures (`finished`, when it sets
 * them), each an existing post picture of theirs (one read for all). Whether one is in a post already is the
 * write's to find (the unique key and the deferred trigger of migration 0043), so that two writes racing for one
 * picture cannot both have it.
 */
export async function attachableProcessPictures(
  media: Pick<MediaService, 'findByIds'>,
  database: Db,
  userId: string,
  requested: readonly string[],
  finished: readonly string[] = [],
): Promise<string[]> {
  if (requested.length > LIMITS.processPicturesMax) throw badRequest(PROCESS_ERRORS.tooMany);
  const ids = requested.map((id) => id.toLowerCase());
  const seen = new Set<string>();
  const pictures = new Set(finished.map((id) => id.toLowerCase()));
  ids.forEach((id, i) => {
    if (seen.has(id)) throw badRequest(PROCESS_ERRORS.duplicate(requested[i]!));
    if (pictures.has(id)) throw badRequest(PROCESS_ERRORS.alsoFinished(requested[i]!));
    seen.add(id);
  });
  const rows = new Map((await media.findByIds(ids, database)).map((row) => [row.id, row]));
  ids.forEach((id, i) => {
    const row = rows.get(id);
    if (!row) throw notFound(MEDIA_NOT_FOUND);
    if (row.ownerId !== userId) throw badRequest(PROCESS_ERRORS.notOwned(requested[i]!));
    if (row.purpose !== 'post') throw badRequest(PROCESS_ERRORS.avatar(requested[i]!));
  });
  return ids;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * An edit's process pictures, under the post's lock (the caller's transaction, after its ownership check): makes
 * `requested` the post's process pictures and answers the new list and the ones it took out (for the caller to
 * delete once committed, with the pictures it let go of); undefined when the list is the one the post has.
 * `finished` is the edit's new list of finished pictures, when it sets one (a picture may not be in both).
 */
export async function editProcessPictures(
  tx: Db,
  media: Pick<MediaService, 'findByIds'>,
  {
    userId,
    postId,
    requested,
    finished,
  }: { userId: string; postId: string; requested: readonly string[]; finished?: readonly string[] | undefined },
): Promise<{ wanted: string[]; removed: string[] } | undefined> {
  const wanted = await attachableProcessPictures(media, tx, userId, requested, finished);
  const current = await selectProcessMediaIds(tx, postId);
  if (sameList(current, wanted)) return undefined;
  await replaceProcessPictures(tx, postId, wanted);
  return { wanted, removed: current.filter((id) => !wanted.includes(id)) };
}
