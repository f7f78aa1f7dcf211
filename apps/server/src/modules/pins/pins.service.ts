import { ERRORS, PINS_MAX } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation } from '../../lib/db-errors.js';
import { badRequest, notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import type { JsonText } from '../../lib/json-text.js';
import type { PostsService } from '../posts/index.js';
import { usernameExists } from '../users/index.js';
import { blockedViewer } from '../safety/index.js';
import { lockPinsOf, replacePins, selectPinnedIds, selectPinnedIdsByUsername, selectPostAuthor } from './pins.sql.js';

/** Why a reorder is refused (400s), naming the post at fault. */
export const PIN_ERRORS = {
  duplicate: (id: string) => `The post ${id} is listed twice in postIds: list each pinned post once.`,
  notPinned: (id: string) => `The post ${id} is not pinned: pin it first with POST /api/posts/${id}/pin.`,
} as const;

/** A list of pinned posts as it leaves the server: a page that is always the last. */
export interface PinnedPage {
  posts: JsonText[];
  nextCursor: null;
}

/**
 * Pinned works: an artist pins up to PINS_MAX of their own posts, shown first on their profile in the
 * order they choose. Every write rewrites the artist's whole list under their lock (see replacePins).
 */
export function createPinsService({ db, posts }: { db: Db; posts: PostsService }) {
  const page = async (ids: string[], viewerId: string | null): Promise<PinnedPage> => ({
    posts: await posts.getPosts(ids, viewerId),
    nextCursor: null,
  });

  /** Runs `change` on the artist's pinned ids under their lock and writes what it returns, if anything. */
  async function changePins(userId: string, change: (tx: Db, pinned: string[]) => Promise<string[] | undefined>) {
    const ids = await db
      .transaction(async (tx) => {
        await lockPinsOf(tx, userId);
        const pinned = await selectPinnedIds(tx, userId);
        const next = await change(tx, pinned);
        if (next) await replacePins(tx, userId, next);
        return next ?? pinned;
      })
      .catch((error: unknown) => {
        // The post was deleted between the author check and the write.
        if (isForeignKeyViolation(error, 'post_pins_post_id_posts_id_fk')) throw notFound(ERRORS.postNotFound);
        throw error;
      });
    return page(ids, userId);
  }

  /** The post's id as stored, after checking it exists and is the artist's own. */
  async function ownPost(tx: Db, userId: string, postId: string): Promise<string> {
    if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
    const author = await selectPostAuthor(tx, postId);
    if (author === undefined) throw notFound(ERRORS.postNotFound);
    if (author !== userId) throw badRequest(ERRORS.pinNotOwner);
    return postId.toLowerCase();
  }

  return {
    /** A profile's pinned works, in the artist's order (404 for an unknown user). */
    async pinned(username: string, viewerId: string | null): Promise<PinnedPage> {
      const ids = await selectPinnedIdsByUsername(db, username);
      if (ids.length === 0 && !(await usernameExists(db, username))) throw notFound(ERRORS.userNotFound);
      // Someone who blocked the viewer is not there for them (issue 23).
      if (viewerId !== null && (await blockedViewer(db, username, viewerId))) throw notFound(ERRORS.userNotFound);
      return page(ids, viewerId);
    },

    /**
     * Pins the artist's own post at `position` (0 first; default last). Pinning a pinned post again moves
     * it to `position` if one is given and otherwise changes nothing. A 7th pin is refused.
     */
    pin: (userId: string, postId: string, position?: number) =>
      changePins(userId, async (tx, pinned) => {
        const id = await ownPost(tx, userId, postId);
        const already = pinned.includes(id);
        if (already && position === undefined) return undefined;
        if (!already && pinned.length >= PINS_MAX) throw badRequest(ERRORS.tooManyPins);
        const others = pinned.filter((pinnedId) => pinnedId !== id);
        const at = Math.min(position ?? others.length, others.length);
        return [...others.slice(0, at), id, ...others.slice(at)];
      }),

    /** Unpins the artist's own post; a post that is not pinned stays so (no error). */
    unpin: (userId: string, postId: string) =>
      changePins(userId, async (tx, pinned) => {
        const id = await ownPost(tx, userId, postId);
        return pinned.includes(id) ? pinned.filter((pinnedId) => pinnedId !== id) : undefined;
      }),

    /** Puts the pinned posts in a new order: `postIds` lists every one of them, each once. */
    reorder: (userId: string, postIds: readonly string[]) =>
      changePins(userId, async (_tx, pinned) => {
        const seen = new Set<string>();
        const next = postIds.map((requested) => {
          const id = requested.toLowerCase();
          if (seen.has(id)) throw badRequest(PIN_ERRORS.duplicate(requested));
          if (!pinned.includes(id)) throw badRequest(PIN_ERRORS.notPinned(requested));
          seen.add(id);
          return id;
        });
        if (next.length !== pinned.length) throw badRequest(ERRORS.pinsNotAll);
        return next;
      }),
  };
}

export type PinsService = ReturnType<typeof createPinsService>;
