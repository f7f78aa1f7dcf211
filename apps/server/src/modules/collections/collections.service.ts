import {
  COLLECTION_LIMITS,
  ERRORS,
  PAGE_LIMITS,
  SAVED_COLLECTION,
  type AddCollectionWorkBody,
  type Collection,
  type CreateCollectionBody,
  type Post,
  type PostCollections,
  type UpdateCollectionBody,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { notifyCollectionArtists, withdrawCollectionWorks } from '../../events/notification-rules.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { badRequest, HttpError, notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { JsonText } from '../../lib/json-text.js';
import type { PostsService } from '../posts/index.js';
import { toUserSummary } from '../users/index.js';
import {
  collectionOrder,
  countOwnerCollections,
  deleteCollectionRow,
  deleteWork,
  insertCollection,
  insertWork,
  lockCollection,
  lockOwnerCollections,
  selectCollectionById,
  selectCollectionBySlug,
  selectCollectionPage,
  selectOwner,
  selectOwnerById,
  selectPostCollections,
  selectPostOrigin,
  selectSlugsLike,
  selectWorkRows,
  touchCollection,
  updateCollectionRow,
  updateWorkNote,
  updateWorkPosition,
  type CollectionRow,
  type OwnerRow,
  type WorkRow,
} from './collections.sql.js';

/** Every refusal of the collections routes, each saying what to do instead. */
export const COLLECTION_ERRORS = {
  notFound: 'There is no such collection: it may have been deleted, renamed or made private.',
  notOwner: 'This collection is someone else’s: you can change only your own collections.',
  notOwnerOrArtist:
    'This collection is someone else’s: only its owner, or the artist of the work, can take a work out of it.',
  titleBlank: 'title must not be empty or only spaces: give the collection a name.',
  tooMany: `You have ${COLLECTION_LIMITS.perPerson} collections, the most one may have: delete one to start another.`,
  tooManyWorks: `This collection holds ${COLLECTION_LIMITS.worksMax} works, the most a collection may hold: start another collection.`,
  remoteWork: 'This work comes from another server: a collection holds only works posted here.',
  notCollectable: (username: string) =>
    `@${username} does not let others add their works to collections: save it to your Saved (a bookmark) instead.`,
  alreadyIn: 'This work is already in the collection: move it with POST /api/collections/{id}/works/{postId}/move.',
  notInCollection: 'This work is not in the collection: add it first with POST /api/collections/{id}/works.',
  afterNotInCollection:
    'after names a work that is not in this collection: pass the _id of one of its works, or null for the start.',
  afterItself: 'A work cannot go after itself: name another work of the collection in after, or null for the start.',
  savedFixed:
    'Saved is your default collection: it cannot be renamed, made public, reordered or deleted, and holds no notes. Make a collection of your own for that.',
} as const;

const forbidden = (message: string) => new HttpError(403, message);

/** At most this many rounds of reading past works the viewer may not see, to fill one page. */
const PAGE_ROUNDS = 5;
/** Characters of a slug: a long title's slug is cut at a word. */
const SLUG_MAX = 60;
/** The cursor of an owner's list right after Saved when Saved alone filled the first page: before every row. */
const AFTER_SAVED_CURSOR = encodeCursor([new Date('9999-12-31T00:00:00.000Z'), 'ffffffff-ffff-ffff-ffff-ffffffffffff']);

/**
 * The slug of a title: lower-case ASCII letters and digits joined by '-', accents dropped; `collection` when nothing
 * is left (a title in another script). `saved` is Saved's: a collection by that name is `saved-2`.
 */
export function collectionSlugOf(title: string): string {
  const ascii = title.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  let slug = ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (slug.length > SLUG_MAX) {
    const cut = slug.slice(0, SLUG_MAX);
    const dash = cut.lastIndexOf('-');
    slug = (dash > SLUG_MAX / 2 ? cut.slice(0, dash) : cut).replace(/-+$/, '');
  }
  return slug || 'collection';
}

const cleanTitle = (title: string) => {
  const trimmed = title.trim();
  if (!trimmed) throw badRequest(COLLECTION_ERRORS.titleBlank);
  return trimmed;
};

const workJson = (post: JsonText, note: string, addedAt: string | null) =>
  new JsonText(`{"post":${post.text},"note":${JSON.stringify(note)},"addedAt":${JSON.stringify(addedAt)}}`);

const isSaved = (id: string) => id.toLowerCase() === SAVED_COLLECTION;

/**
 * Collections (issue 41): works by anyone gathered by anyone signed in, public or private, in the owner's order, with
 * a note per work. Saved is the posts module's bookmarks, shown as the owner's default private collection. Works are
 * presented by the posts module's reader, which checks each again for the viewer (blocks, moderation, suspension,
 * signed-in only).
 */
export function createCollectionsService({ db, posts }: { db: Db; posts: PostsService }) {
  /** The posts the viewer may see among `ids`, by id. */
  async function postsById(ids: string[], viewerId: string | null): Promise<Map<string, JsonText>> {
    if (ids.length === 0) return new Map();
    const found = await posts.getPosts(ids, viewerId);
    return new Map(found.map((json) => [(JSON.parse(json.text) as Post)._id, json]));
  }

  /** The first picture without a content warning among the posts, in their order. */
  const coverOf = (shown: (Post | undefined)[]) =>
    shown.find((post) => post?.picture && !post.contentWarning)?.picture ?? null;

  /** The rows as the contract's Collection, each with the first cover candidate the viewer may see with a picture. */
  async function present(rows: CollectionRow[], viewerId: string | null): Promise<Collection[]> {
    const candidates = [...new Set(rows.flatMap((row) => row.cover_candidates))];
    const shown = await postsById(candidates, viewerId);
    const parsed = new Map([...shown].map(([id, json]) => [id, JSON.parse(json.text) as Post]));
    return rows.map((row) => ({
      _id: row.id,
      kind: 'collection' as const,
      slug: row.slug,
      title: row.title,
      description: row.description,
      visibility: row.is_public ? ('public' as const) : ('private' as const),
      owner: toUserSummary({
        _id: row.owner_id,
        username: row.owner_username,
        firstName: row.owner_first_name,
        lastName: row.owner_last_name,
        photoUrl: row.owner_photo_url,
      }),
      cover: coverOf(row.cover_candidates.map((id) => parsed.get(id))),
      workCount: row.work_count,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      viewer: { isOwner: viewerId === row.owner_id },
    }));
  }

  /** The owner's Saved as a collection: their bookmarks, private, the newest saved first. */
  async function savedOf(owner: OwnerRow): Promise<Collection> {
    const first = await posts.bookmarked({ limit: 4 }, owner.id);
    return {
      _id: SAVED_COLLECTION,
      kind: 'saved',
      slug: SAVED_COLLECTION,
      title: 'Saved',
      description: 'Works you bookmarked: only you see them.',
      visibility: 'private',
      owner: toUserSummary({
        _id: owner.id,
        username: owner.username,
        firstName: owner.first_name,
        lastName: owner.last_name,
        photoUrl: owner.photo_url,
      }),
      cover: coverOf(first.posts.map((json) => JSON.parse(json.text) as Post)),
      workCount: Number(owner.bookmark_count),
      createdAt: owner.created_at,
      updatedAt: owner.created_at,
      viewer: { isOwner: true },
    };
  }

  async function ownSaved(userId: string): Promise<Collection> {
    const owner = await selectOwnerById(db, userId);
    if (!owner) throw notFound(COLLECTION_ERRORS.notFound);
    return savedOf(owner);
  }

  /** One collection as the viewer sees it; 404 when it is not there for them. */
  async function shownCollection(id: string, viewerId: string | null): Promise<CollectionRow> {
    const row = isUuid(id) ? await selectCollectionById(db, id, viewerId) : undefined;
    if (!row) throw notFound(COLLECTION_ERRORS.notFound);
    return row;
  }

  const answer = async (id: string, viewerId: string) => {
    const [collection] = await present([await shownCollection(id, viewerId)], viewerId);
    return collection!;
  };

  /** A slug for `title` not taken among the owner's collections (but `except`): the base, else base-2, base-3… */
  async function freeSlug(tx: Db, ownerId: string, title: string, except?: string): Promise<string> {
    const base = collectionSlugOf(title);
    const taken = new Set(await selectSlugsLike(tx, ownerId, base, except));
    if (base === SAVED_COLLECTION) taken.add(base);
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  /**
   * Runs a change of the collection in one transaction, with its row locked and checked as the user's (or, with
   * `artistOf`, as holding a work of theirs in a collection they may read).
   */
  async function changeOwn<T>(
    userId: string,
    id: string,
    change: (
      tx: Db,
      collection: { id: string; owner_id: string; is_public: boolean; work_count: number },
    ) => Promise<T>,
  ) {
    if (isSaved(id)) throw badRequest(COLLECTION_ERRORS.savedFixed);
    if (!isUuid(id)) throw notFound(COLLECTION_ERRORS.notFound);
    return db
      .transaction(async (tx) => {
        const collection = await lockCollection(tx, id);
        // Someone else's private collection is not there for them at all.
        if (!collection || (!collection.is_public && collection.owner_id !== userId)) {
          throw notFound(COLLECTION_ERRORS.notFound);
        }
        if (collection.owner_id !== userId) {
          // Nor is a public one of someone they are in a blocked pair with, or a suspended person's.
          if (!(await selectCollectionById(tx, collection.id, userId))) throw notFound(COLLECTION_ERRORS.notFound);
          throw forbidden(COLLECTION_ERRORS.notOwner);
        }
        return change(tx, collection);
      })
      .catch((error: unknown) => {
        // The post was deleted between its check and the write.
        if (isForeignKeyViolation(error, 'collection_works_post_id_posts_id_fk')) throw notFound(ERRORS.postNotFound);
        throw error;
      });
  }

  /** A free position right after `after` (undefined: the end; null: the start), `moving` left out. */
  const placeAfter = (tx: Db, collectionId: string, after: string | null | undefined, moving?: string) =>
    collectionOrder.placeAfter(tx, collectionId, after, {
      ...(moving ? { moving } : {}),
      afterMissing: () => badRequest(COLLECTION_ERRORS.afterNotInCollection),
    });

  /**
   * The post's id as stored, after checking the collector may see it (404 as the posts module answers: a blocked
   * pair, a hidden or removed work, a suspended artist), it was posted here, and its artist lets others collect it.
   */
  async function collectableWork(userId: string, postId: string): Promise<string> {
    await posts.getPost(postId, userId);
    const origin = await selectPostOrigin(db, postId);
    if (!origin) throw notFound(ERRORS.postNotFound);
    if (origin.remote) throw badRequest(COLLECTION_ERRORS.remoteWork);
    if (origin.author_id !== userId && !origin.allow_collecting) {
      throw badRequest(COLLECTION_ERRORS.notCollectable(origin.author_username));
    }
    return postId.toLowerCase();
  }

  return {
    /**
     * A person's collections, newest first: public ones, and for the owner all of theirs after Saved (the first page
     * only). Unknown user, a blocked pair, a suspended person: 404.
     */
    async list(
      username: string,
      query: { cursor?: string | undefined; limit?: number | undefined },
      viewerId: string | null,
    ) {
      const owner = await selectOwner(db, username, viewerId);
      if (!owner || owner.blocked) throw notFound(ERRORS.userNotFound);
      // Signed out, a person who shows their works to signed-in people only has no collections to show; nor has a
      // suspended person, nor someone on another server.
      if (!owner.shown) return { collections: [], nextCursor: null };
      const limit = query.limit ?? PAGE_LIMITS.default;
      const withSaved = viewerId === owner.id && !query.cursor;
      if (withSaved && limit === 1) {
        return { collections: [await savedOf(owner)], nextCursor: AFTER_SAVED_CURSOR };
      }
      const { page, nextCursor } = await selectCollectionPage(db, owner.id, viewerId, {
        cursor: query.cursor,
        limit: withSaved ? limit - 1 : limit,
      });
      const collections = await present(page, viewerId);
      return { collections: withSaved ? [await savedOf(owner), ...collections] : collections, nextCursor };
    },

    /** One collection by its owner's username and its slug (`saved`: the owner's Saved, for the owner alone). */
    async bySlug(username: string, slug: string, viewerId: string | null): Promise<Collection> {
      if (isSaved(slug)) {
        const owner = viewerId === null ? undefined : await selectOwner(db, username, viewerId);
        if (!owner || owner.id !== viewerId) throw notFound(COLLECTION_ERRORS.notFound);
        return savedOf(owner);
      }
      const row = await selectCollectionBySlug(db, username, slug.toLowerCase(), viewerId);
      if (!row) throw notFound(COLLECTION_ERRORS.notFound);
      const [collection] = await present([row], viewerId);
      return collection!;
    },

    /** A new collection of the user's (private unless asked); at most COLLECTION_LIMITS.perPerson. */
    async create(userId: string, body: CreateCollectionBody): Promise<Collection> {
      const title = cleanTitle(body.title);
      const description = body.description?.trim() ?? '';
      const id = await db.transaction(async (tx) => {
        await lockOwnerCollections(tx, userId);
        if ((await countOwnerCollections(tx, userId)) >= COLLECTION_LIMITS.perPerson) {
          throw badRequest(COLLECTION_ERRORS.tooMany);
        }
        const slug = await freeSlug(tx, userId, title);
        return insertCollection(tx, {
          ownerId: userId,
          slug,
          title,
          description,
          isPublic: body.visibility === 'public',
        });
      });
      return answer(id, userId);
    },

    /**
     * Renames (a new slug from the new title), describes, or makes public or private. Made public, the artists of its
     * works hear of it; made private, every notification naming it is withdrawn.
     */
    async update(userId: string, id: string, body: UpdateCollectionBody): Promise<Collection> {
      await changeOwn(userId, id, async (tx, collection) => {
        const changes: Parameters<typeof updateCollectionRow>[2] = {};
        if (body.title !== undefined) {
          changes.title = cleanTitle(body.title);
          await lockOwnerCollections(tx, userId);
          changes.slug = await freeSlug(tx, userId, changes.title, collection.id);
        }
        if (body.description !== undefined) changes.description = body.description.trim();
        if (body.visibility !== undefined) changes.isPublic = body.visibility === 'public';
        await updateCollectionRow(tx, collection.id, changes);
        if (changes.isPublic === true && !collection.is_public) {
          await notifyCollectionArtists(tx, { actorId: userId, collectionId: collection.id });
        } else if (changes.isPublic === false && collection.is_public) {
          await withdrawCollectionWorks(tx, { collectionId: collection.id });
        }
      });
      return answer(id, userId);
    },

    /** Deletes the collection (its works stay where they are; the notifications naming it go with it). */
    async remove(userId: string, id: string): Promise<void> {
      await changeOwn(userId, id, async (tx, collection) => {
        await withdrawCollectionWorks(tx, { collectionId: collection.id });
        await deleteCollectionRow(tx, collection.id);
      });
    },

    /**
     * A keyset page of the collection's works in order, those the viewer may not see left out: the page is filled by
     * reading past them (a few rounds at most; a page may then come out short, its cursor going on). Saved: the
     * owner's bookmarks, the newest first.
     */
    async works(
      id: string,
      query: { cursor?: string | undefined; limit?: number | undefined },
      viewerId: string | null,
    ) {
      if (isSaved(id)) {
        if (viewerId === null) throw notFound(COLLECTION_ERRORS.notFound);
        const page = await posts.bookmarked(query, viewerId);
        return { works: page.posts.map((post) => workJson(post, '', null)), nextCursor: page.nextCursor };
      }
      const collection = await shownCollection(id, viewerId);
      const limit = query.limit ?? PAGE_LIMITS.default;
      let after = query.cursor ? (decodeCursor(query.cursor, ['int'])[0] as number) : undefined;
      const works: JsonText[] = [];
      let more = true;
      for (let round = 0; round < PAGE_ROUNDS && more && works.length < limit; round++) {
        const want = limit - works.length;
        const rows: WorkRow[] = await selectWorkRows(db, collection.id, viewerId, after, want + 1);
        more = rows.length > want;
        const batch = rows.slice(0, want);
        const shown = await postsById(
          batch.map((row) => row.post_id),
          viewerId,
        );
        for (const row of batch) {
          const post = shown.get(row.post_id);
          if (post) works.push(workJson(post, row.note, row.added_at));
          after = row.position;
        }
      }
      return { works, nextCursor: more && after !== undefined ? encodeCursor([after]) : null };
    },

    /**
     * Adds a work (anyone's, one's own too) after a work, first, or last, with a note. Saved: a bookmark. In a public
     * collection, its artist is notified.
     */
    async addWork(userId: string, id: string, body: AddCollectionWorkBody): Promise<Collection> {
      if (isSaved(id)) {
        await posts.bookmark(userId, body.postId, true);
        return ownSaved(userId);
      }
      const postId = await collectableWork(userId, body.postId);
      await changeOwn(userId, id, async (tx, collection) => {
        if ((await collectionOrder.positionOf(tx, collection.id, postId)) !== undefined) {
          throw new HttpError(409, COLLECTION_ERRORS.alreadyIn);
        }
        if (collection.work_count >= COLLECTION_LIMITS.worksMax) throw badRequest(COLLECTION_ERRORS.tooManyWorks);
        const position = await placeAfter(tx, collection.id, body.after);
        await insertWork(tx, { collectionId: collection.id, postId, position, note: body.note?.trim() ?? '' }).catch(
          (error: unknown) => {
            // The collection's lock orders two adds of one work: only a safety net.
            if (isUniqueViolation(error, 'collection_works_collection_id_post_id_pk')) {
              throw new HttpError(409, COLLECTION_ERRORS.alreadyIn);
            }
            throw error;
          },
        );
        await touchCollection(tx, collection.id);
        if (collection.is_public) {
          await notifyCollectionArtists(tx, { actorId: userId, collectionId: collection.id, postId });
        }
      });
      return answer(id, userId);
    },

    /** Writes (or clears, with an empty note) the note on a work of the collection. */
    async editWork(userId: string, id: string, postId: string, note: string): Promise<Collection> {
      await changeOwn(userId, id, async (tx, collection) => {
        const changed = isUuid(postId) && (await updateWorkNote(tx, collection.id, postId, note.trim()));
        if (!changed) throw notFound(COLLECTION_ERRORS.notInCollection);
        await touchCollection(tx, collection.id);
      });
      return answer(id, userId);
    },

    /**
     * Takes a work out: the collection's owner, or the work's artist from someone's public collection they may see.
     * Saved: the bookmark goes. The unread notification of its addition is withdrawn.
     */
    async removeWork(userId: string, id: string, postId: string): Promise<Collection> {
      if (isSaved(id)) {
        await posts.bookmark(userId, postId, false);
        return ownSaved(userId);
      }
      if (!isUuid(id)) throw notFound(COLLECTION_ERRORS.notFound);
      await db.transaction(async (tx) => {
        const collection = await lockCollection(tx, id);
        if (!collection || (collection.owner_id !== userId && !(await selectCollectionById(tx, id, userId)))) {
          throw notFound(COLLECTION_ERRORS.notFound);
        }
        if (collection.owner_id !== userId) {
          const origin = isUuid(postId) ? await selectPostOrigin(tx, postId) : undefined;
          if (origin?.author_id !== userId) throw forbidden(COLLECTION_ERRORS.notOwnerOrArtist);
        }
        const removed = isUuid(postId) && (await deleteWork(tx, collection.id, postId));
        if (!removed) throw notFound(COLLECTION_ERRORS.notInCollection);
        await touchCollection(tx, collection.id);
        await withdrawCollectionWorks(tx, { collectionId: collection.id, postId });
      });
      return answer(id, userId);
    },

    /** Moves one work right after another (null: first): one row written, as drag and keyboard both ask. */
    async moveWork(userId: string, id: string, postId: string, after: string | null): Promise<Collection> {
      await changeOwn(userId, id, async (tx, collection) => {
        if ((await collectionOrder.positionOf(tx, collection.id, postId)) === undefined) {
          throw notFound(COLLECTION_ERRORS.notInCollection);
        }
        if (after !== null && after.toLowerCase() === postId.toLowerCase()) {
          throw badRequest(COLLECTION_ERRORS.afterItself);
        }
        const position = await placeAfter(tx, collection.id, after, postId);
        await updateWorkPosition(tx, collection.id, postId, position);
        await touchCollection(tx, collection.id);
      });
      return answer(id, userId);
    },

    /** Which of the user's collections hold a work they may see (the "Save to…" menu's checks). */
    async ofPost(postId: string, userId: string): Promise<PostCollections> {
      await posts.getPost(postId, userId);
      const row = await selectPostCollections(db, postId, userId);
      return { saved: row.saved, collectionIds: row.collection_ids };
    },
  };
}

export type CollectionsService = ReturnType<typeof createCollectionsService>;
