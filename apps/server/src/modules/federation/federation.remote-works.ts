import { setTimeout as sleep } from 'node:timers/promises';
import type { DocumentLoader } from '@fedify/fedify';
import {
  Create,
  Document,
  Image,
  LanguageString,
  Link,
  Note,
  Object as APObject,
  OrderedCollection,
  Collection,
  PUBLIC_COLLECTION,
} from '@fedify/vocab';
import { canonicalLanguage, LIMITS, MEDIA_LIMITS } from '@share-arts/contract';
import {
  insertRemoteWork,
  removeRemoteWork,
  selectRemoteWork,
  updateRemoteWork,
  type StoredRemoteWork,
} from '../../actions/remote-people.js';
import type { Db } from '../../db/client.js';
import type { MediaVariant } from '../../db/schema.js';
import { extractHashtags } from '../../lib/hashtags.js';
import { HttpError } from '../../lib/http-error.js';
import { RemoteRefused, RemoteUnreachable, safeFetch, type FetchRules } from './federation.remote-fetch.js';
import { warningText, workText } from './federation.reply-text.js';
import { isMediaRejectedServer, isSuspendedServer } from './federation.safety.js';
import { selectFollowedShadow, selectPostByNote, selectShadowByIri, type ShadowRow } from './federation.sql.js';

/**
 * A remote person's works (following out, issue 39): a public `Note` with pictures (Mastodon's status, Pixelfed's
 * post: a Note whose attachments are `Image`s or `Document`s) becomes an ordinary post of their shadow account here,
 * each picture fetched and run through the media module's upload (its checks, limits, pipeline and fair queue, as an
 * import's), so that Home, the post page, likes, comments and bookmarks work unchanged. Kept once per Note id
 * (`posts.note_iri`). What is skipped: a Note to followers only or direct, a reply, and a Note with no picture that
 * can be used (none, or none that could be fetched and read); a picture that fails leaves the others.
 */

/** The job that takes one Note in (from an inbox's Create, or a person's newest works when first found). */
export const REMOTE_WORK_JOB = { kind: 'federation.remote-work', retryLimit: 3, retryDelaySeconds: 60 } as const;
/** The job that reads a newly found person's outbox for their newest works. */
export const BACKFILL_JOB = { kind: 'federation.remote-backfill', retryLimit: 2, retryDelaySeconds: 120 } as const;
/** The most a backfill reads and takes: outbox pages, and works with pictures. */
export const BACKFILL = { pages: 2, works: 20 } as const;
/** How long one picture may take to come. */
export const PICTURE_TIMEOUT_MS = 30_000;

/** What a remote work needs of the media module: its upload (as an import's), and the deletion of pictures. */
export interface RemoteWorkMedia {
  upload(input: { ownerId: string; data: Buffer; name?: string; alt?: string; purpose?: 'post' }): Promise<{
    id: string;
  }>;
  deleteMedia(id: string): Promise<boolean>;
  removeFiles(pictures: { originalFile: string; variants: MediaVariant[] }[]): Promise<void>;
  /** The message of a 503 that means "the pictures' queue is full": wait a turn. */
  busyMessage: string;
}

export interface RemoteWorksDeps {
  db: Db;
  media: RemoteWorkMedia;
  rules: FetchRules;
  /** Documents, signed by the instance actor, size- and time-limited (limitedLoader). */
  loader: DocumentLoader;
  contextLoader: () => DocumentLoader;
  /** This server's host (mentions of its accounts are written `@name`), '' when unknown. */
  localHost: () => string;
  log: { warn(details: object, message: string): void };
}

/**
 * A post as a Note: a Note itself, or an `Image` (older Pixelfed's posts, and AS2's single picture) read as a Note with
 * the same words, warning, audience, author and time; its `attachment`s are its pictures, or, with none, its own `url`
 * when that is a picture (its `name` the alt text). Anything else: null. Mastodon converts an `Image` the same way
 * (`CONVERTED_TYPES` of its `activity/create.rb`).
 */
export async function asWorkNote(
  object: unknown,
  options: { documentLoader: DocumentLoader; contextLoader: DocumentLoader },
): Promise<Note | null> {
  if (object instanceof Note) return object;
  if (!(object instanceof Image) || !object.id) return null;
  const json = (await object.toJsonLd({ format: 'compact', contextLoader: options.contextLoader })) as Record<
    string,
    unknown
  >;
  const ownPicture = json.attachment === undefined && /^image\//i.test(object.mediaType ?? '') ? object.url : null;
  const pictureUrl = ownPicture instanceof URL ? ownPicture : ownPicture instanceof Link ? ownPicture.href : null;
  const { url: _url, mediaType: _type, name, width: _w, height: _h, ...rest } = json;
  const note = {
    ...rest,
    type: 'Note',
    ...(pictureUrl
      ? {
          url: json.id,
          attachment: [{ type: 'Image', url: pictureUrl.href, mediaType: object.mediaType, ...(name ? { name } : {}) }],
        }
      : { url: _url }),
  };
  try {
    return await Note.fromJsonLd(note, options);
  } catch {
    return null;
  }
}

/** Whether a Note is addressed to the Public (`to`, or `cc` for Mastodon's "unlisted"): not followers-only, not direct. */
export const isPublicNote = (note: Note) =>
  [...note.toIds, ...note.ccIds].some((id) => id.href === PUBLIC_COLLECTION.href);

/** The href of a URL or a Link when it is http(s), else null. */
const httpHref = (value: URL | Link | null | undefined): string | null => {
  const url = value instanceof URL ? value : value instanceof Link ? value.href : null;
  return url && (url.protocol === 'https:' || url.protocol === 'http:') && url.href.length <= 2_000 ? url.href : null;
};

interface RemotePicture {
  url: string;
  alt: string;
}

/** A Note read as a work: what the post keeps, and its pictures' addresses. */
export interface NoteWork {
  noteIri: string;
  noteUrl: string | null;
  content: string;
  /** The language of its words (issue 43): see noteLanguage. */
  language: string | null;
  tags: string[];
  contentWarning: string | null;
  createdAt: Date | null;
  pictures: RemotePicture[];
}

/**
 * The language a Note says its words are in (issue 43), canonical: its `contentMap`'s one language, or of several the
 * one whose words are its `content` (Mastodon sends one, the status's language); else null, as is `und`
 * (undetermined) or a malformed tag. Mastodon reads the first key: we take no guess among several that differ.
 */
export function noteLanguage(note: Note): string | null {
  const contents = note.contents;
  const tagged = contents.filter((value): value is LanguageString => value instanceof LanguageString);
  const plain = contents.find((value) => typeof value === 'string');
  const chosen =
    tagged.length === 1
      ? tagged[0]
      : plain === undefined
        ? undefined
        : tagged.filter((value) => String(value) === plain).length === 1
          ? tagged.find((value) => String(value) === plain)
          : undefined;
  if (!chosen) return null;
  const tag = chosen.locale.baseName;
  if (tag.toLowerCase() === 'und') return null;
  return canonicalLanguage(tag);
}

/**
 * A Note as a work, or why it is not one: public, not a reply, with 1 to 20 attachments of `image/*` (an `Image` or a
 * `Document` with a picture's media type, Mastodon's and Pixelfed's); its words, tags, warning, time and alt texts.
 */
export async function noteWork(
  note: Note,
  deps: Pick<RemoteWorksDeps, 'contextLoader' | 'loader' | 'localHost'>,
): Promise<NoteWork | { skip: string }> {
  if (!note.id) return { skip: 'it has no id' };
  if (!isPublicNote(note)) return { skip: 'it is not public' };
  if (note.replyTargetId) return { skip: 'it is a reply' };
  const pictures: RemotePicture[] = [];
  try {
    for await (const item of note.getAttachments({
      documentLoader: deps.loader,
      contextLoader: deps.contextLoader(),
      suppressError: true,
    })) {
      if (!(item instanceof Document)) continue;
      const type = item.mediaType ?? '';
      const url = Array.isArray(item.url) ? null : httpHref(item.url);
      if (!url || !/^image\//i.test(type)) continue;
      const alt = warningText(String(item.name ?? ''), deps.localHost(), MEDIA_LIMITS.altMax);
      pictures.push({ url, alt });
      if (pictures.length === LIMITS.postPicturesMax) break;
    }
  } catch {
    // Attachments that cannot be read are none.
  }
  if (pictures.length === 0) return { skip: 'it has no pictures' };
  const noteUrl = httpHref(note.url) ?? note.id.href;
  const content = workText(String(note.content ?? ''), noteUrl, deps.localHost());
  const summary = note.summary === null ? '' : warningText(String(note.summary), deps.localHost(), 100);
  return {
    noteIri: note.id.href,
    noteUrl,
    content,
    language: noteLanguage(note),
    tags: extractHashtags(content),
    contentWarning: note.sensitive ? summary || 'Sensitive' : null,
    createdAt: note.published ? new Date(note.published.epochMilliseconds) : null,
    pictures,
  };
}

/**
 * Fetches one picture (a public address, image/*, at most the upload's byte limit, in PICTURE_TIMEOUT_MS) and runs it
 * through the media module's upload for the shadow account (its pixel limits, formats and pipeline). A full queue is
 * waited out, as an import does. Answers the picture's id, or why it was refused.
 */
async function fetchPicture(
  deps: RemoteWorksDeps,
  ownerId: string,
  picture: RemotePicture,
): Promise<{ id: string } | { reason: string }> {
  let data: Buffer;
  try {
    const fetched = await safeFetch(new URL(picture.url), {
      ...deps.rules,
      accept: 'image/*',
      maxBytes: MEDIA_LIMITS.maxBytes,
      timeoutMs: PICTURE_TIMEOUT_MS,
    });
    if (!/^image\//i.test(fetched.contentType) && !/^application\/octet-stream/i.test(fetched.contentType)) {
      return { reason: `it is not a picture (${fetched.contentType || 'no type'})` };
    }
    data = fetched.body;
  } catch (error) {
    if (error instanceof RemoteRefused || error instanceof RemoteUnreachable) return { reason: error.message };
    throw error;
  }
  // The file name it is saved under by Download (the media module cleans it); a malformed %-escape is kept as sent.
  const last = new URL(picture.url).pathname.split('/').pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  for (let waited = 0; ; waited += 1) {
    try {
      return await deps.media.upload({
        ownerId,
        data,
        name: name.slice(0, 100) || undefined,
        alt: picture.alt,
        purpose: 'post',
      });
    } catch (error) {
      const status = error instanceof HttpError ? error.statusCode : 500;
      const busy = status === 429 || (status === 503 && (error as Error).message === deps.media.busyMessage);
      if (busy && waited < 120) {
        await sleep(500);
        continue;
      }
      if (status < 500) return { reason: (error as Error).message };
      throw error;
    }
  }
}

/** The pictures fetched and uploaded in order; those refused are left out (and logged). */
async function fetchPictures(deps: RemoteWorksDeps, ownerId: string, work: NoteWork) {
  const uploaded: { mediaId: string; remoteUrl: string }[] = [];
  try {
    for (const picture of work.pictures) {
      const result = await fetchPicture(deps, ownerId, picture);
      if ('id' in result) uploaded.push({ mediaId: result.id, remoteUrl: picture.url });
      else
        deps.log.warn(
          { note: work.noteIri, picture: picture.url, reason: result.reason },
          'federation: a remote picture was refused',
        );
    }
  } catch (error) {
    // A failure that is not the picture's own (the storage): nothing of this try is kept, the job tries again.
    for (const { mediaId } of uploaded) await deps.media.deleteMedia(mediaId);
    throw error;
  }
  return uploaded;
}

/** Why a work was not taken: its server's pictures are not taken here (`reject_media`). */
export const MEDIA_REJECTED = "its server's pictures are not taken here";

/**
 * A work stored for the shadow account `shadow`: its pictures fetched, then the post written (insertRemoteWork).
 * Answers the post's id, or why it was skipped. The same Note again is the post stored already.
 */
export async function storeWork(
  deps: RemoteWorksDeps,
  shadow: Pick<ShadowRow, 'user_id'>,
  work: NoteWork,
): Promise<{ postId: string } | { skip: string }> {
  const stored = await selectPostByNote(deps.db, work.noteIri);
  if (stored) return { postId: stored.id };
  if (await isMediaRejectedServer(deps.db, new URL(work.noteIri))) return { skip: MEDIA_REJECTED };
  const pictures = await fetchPictures(deps, shadow.user_id, work);
  if (pictures.length === 0) return { skip: 'none of its pictures could be used' };
  const postId = await insertRemoteWork(deps.db, {
    authorId: shadow.user_id,
    noteIri: work.noteIri,
    noteUrl: work.noteUrl,
    content: work.content,
    language: work.language,
    tags: work.tags,
    contentWarning: work.contentWarning,
    createdAt: work.createdAt,
    pictures,
  });
  if (postId) return { postId };
  // Stored meanwhile (the same Note from another delivery), or its author gone: the pictures are not needed.
  for (const { mediaId } of pictures) await deps.media.deleteMedia(mediaId);
  const again = await selectPostByNote(deps.db, work.noteIri);
  return again ? { postId: again.id } : { skip: 'its author is gone' };
}

/**
 * A Note fetched by its id (signed, limited), when it is one and its own: its id on the server it was fetched from
 * (after redirects), attributed to `actorIri` when given, on that actor's host. Else null. Throws RemoteUnreachable
 * when that server does not answer.
 */
export async function fetchNote(deps: RemoteWorksDeps, noteIri: string, actorIri?: string): Promise<Note | null> {
  let fetched: { documentUrl: string; document: unknown };
  try {
    fetched = await deps.loader(noteIri);
  } catch (error) {
    if (error instanceof RemoteUnreachable) throw error;
    return null;
  }
  let note: Note | null;
  try {
    const options = { documentLoader: deps.loader, contextLoader: deps.contextLoader() };
    note = await asWorkNote(await APObject.fromJsonLd(fetched.document, options), options);
  } catch {
    return null;
  }
  if (!(note instanceof Note) || !note.id || note.id.origin !== new URL(fetched.documentUrl).origin) return null;
  const author = note.attributionId;
  if (!author || author.host !== note.id.host) return null;
  if (actorIri !== undefined && author.href !== actorIri) return null;
  return note;
}

/**
 * The job `federation.remote-work`: the Note `noteIri` of `actorIri`, fetched, taken in when its author's shadow
 * account is followed by someone here (an inbox's Create), or is there (`backfill`: its newest works, when first
 * found). Nothing from a suspended server. Idempotent by the Note's id.
 */
export async function takeRemoteWork(
  deps: RemoteWorksDeps,
  { noteIri, actorIri, backfill }: { noteIri: string; actorIri: string; backfill?: boolean },
): Promise<void> {
  if (await isSuspendedServer(deps.db, [new URL(actorIri)])) return;
  if (await isMediaRejectedServer(deps.db, new URL(actorIri))) return;
  const shadow = backfill ? await selectShadowByIri(deps.db, actorIri) : await selectFollowedShadow(deps.db, actorIri);
  if (!shadow || (await selectPostByNote(deps.db, noteIri))) return;
  let note: Note | null;
  try {
    note = await fetchNote(deps, noteIri, actorIri);
  } catch (error) {
    throw new Error(`the Note could not be fetched: ${(error as Error).message}`);
  }
  if (!note) return;
  const work = await noteWork(note, deps);
  if ('skip' in work) return;
  await storeWork(deps, shadow, work);
}

/**
 * An `Update` of a stored remote work by its own actor: its words, tags, warning and alt texts; its pictures fetched
 * again when they are others (their addresses changed). A Note that no longer has a picture that can be used keeps
 * its old ones.
 */
export async function updateWork(deps: RemoteWorksDeps, stored: StoredRemoteWork, note: Note): Promise<void> {
  const work = await noteWork(note, deps);
  if ('skip' in work) {
    // No longer public: it goes, as Mastodon takes a status made private out of its timelines.
    if (work.skip === 'it is not public') await deleteWork(deps, stored);
    return;
  }
  const same =
    stored.pictures.length === work.pictures.length &&
    stored.pictures.every((picture, i) => picture.remoteUrl === work.pictures[i]!.url);
  let replace: { mediaId: string; remoteUrl: string }[] | undefined;
  // From a server whose pictures are not taken (reject_media set since it was stored), the pictures it has stay.
  if (!same && !(await isMediaRejectedServer(deps.db, new URL(stored.remoteActorIri)))) {
    replace = await fetchPictures(deps, stored.authorId, work);
    if (replace.length === 0) replace = undefined;
  }
  const alts = replace
    ? []
    : stored.pictures.flatMap((picture) => {
        const match = work.pictures.find((candidate) => candidate.url === picture.remoteUrl);
        return match ? [{ mediaId: picture.mediaId, alt: match.alt }] : [];
      });
  const dropped = await updateRemoteWork(deps.db, {
    postId: stored.postId,
    content: work.content,
    language: work.language,
    tags: work.tags,
    contentWarning: work.contentWarning,
    alts,
    ...(replace ? { replace } : {}),
  });
  for (const mediaId of dropped) await deps.media.deleteMedia(mediaId);
}

/** A stored remote work deleted (its actor's `Delete`), its pictures' files after the commit. */
export async function deleteWork(deps: RemoteWorksDeps, stored: StoredRemoteWork): Promise<void> {
  const files = await removeRemoteWork(deps.db, { postId: stored.postId, authorId: stored.authorId });
  await deps.media.removeFiles(files.map((file) => ({ originalFile: file.original_file, variants: file.variants })));
}

/** The stored remote work a Note id names, when `actorIri` is its author's (only its own actor changes it). */
export async function ownStoredWork(db: Db, noteIri: string, actorIri: string) {
  const stored = await selectRemoteWork(db, noteIri);
  return stored && stored.remoteActorIri === actorIri ? stored : undefined;
}

/**
 * The job `federation.remote-backfill`: a person first found here gets their newest public works with pictures (so
 * their profile is not empty): their outbox's first pages (at most BACKFILL.pages) read, newest first, and at most
 * BACKFILL.works of its Creates' Notes (embedded, their own, on the outbox's server) stored.
 */
export async function backfill(deps: RemoteWorksDeps, { actorIri }: { actorIri: string }): Promise<void> {
  if (await isSuspendedServer(deps.db, [new URL(actorIri)])) return;
  if (await isMediaRejectedServer(deps.db, new URL(actorIri))) return;
  const shadow = await selectShadowByIri(deps.db, actorIri);
  if (!shadow?.outbox) return;
  const outboxUrl = new URL(shadow.outbox);
  if (outboxUrl.host !== new URL(actorIri).host) return;
  const options = { documentLoader: deps.loader, contextLoader: deps.contextLoader() };
  let outbox: unknown;
  try {
    const { document } = await deps.loader(outboxUrl.href);
    outbox = await OrderedCollection.fromJsonLd(document, options).catch(() =>
      Collection.fromJsonLd(document, options),
    );
  } catch {
    return; // An outbox that cannot be read brings nothing; the works that come later still do.
  }
  if (!(outbox instanceof Collection)) return;
  let stored = 0;
  let page: Collection | null = null;
  for (let n = 0; n < BACKFILL.pages && stored < BACKFILL.works; n += 1) {
    try {
      page = n === 0 ? ((await outbox.getFirst(options)) ?? outbox) : await nextOf(page, options);
    } catch {
      return;
    }
    if (!page) return;
    for await (const item of itemsOf(page, options)) {
      if (stored >= BACKFILL.works) break;
      if (!(item instanceof Create)) continue;
      let object: unknown;
      try {
        object = await item.getObject(options);
      } catch {
        continue;
      }
      object = await asWorkNote(object, options);
      if (!(object instanceof Note) || !object.id || object.id.host !== outboxUrl.host) continue;
      if (object.attributionId?.href !== actorIri) continue;
      const work = await noteWork(object, deps);
      if ('skip' in work) continue;
      const result = await storeWork(deps, shadow, work);
      if ('postId' in result) stored += 1;
    }
  }
}

/** The next page of a collection page, when it has one. */
async function nextOf(
  page: Collection | null,
  options: { documentLoader: DocumentLoader; contextLoader: DocumentLoader },
) {
  if (!page || !('getNext' in page) || typeof page.getNext !== 'function') return null;
  return (await (page.getNext as (o: typeof options) => Promise<Collection | null>)(options)) ?? null;
}

/** A page's items (orderedItems or items), each fetched when only named; those that cannot be read left out. */
async function* itemsOf(page: Collection, options: { documentLoader: DocumentLoader; contextLoader: DocumentLoader }) {
  try {
    for await (const item of page.getItems({ ...options, suppressError: true })) yield item;
  } catch {
    // The rest of a page that cannot be read is left out.
  }
}
