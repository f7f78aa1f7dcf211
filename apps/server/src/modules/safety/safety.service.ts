import {
  ERRORS,
  formatDate,
  PAGE_LIMITS,
  SAFETY_ERRORS,
  SAFETY_LIMITS,
  type MutedWord,
  type PageQuery,
} from '@share-arts/contract';
import { blockRemotePerson } from '../../actions/federation.js';
import { endFollowOfRemotePerson } from '../../actions/following-out.js';
import type { Db } from '../../db/client.js';
import type { RelationsCache } from './relations.js';
import { badRequest, HttpError, notFound } from '../../lib/http-error.js';
import {
  deleteBlock,
  deleteMute,
  deleteMutedWord,
  deleteRemoteBlock,
  insertBlock,
  insertMute,
  insertMutedWord,
  remotePersonExists,
  selectListPage,
  selectMutedWords,
  selectUserIdByUsername,
  type MutedWordRow,
} from './safety.sql.js';

/** Any interaction between a blocked pair that is not answered as a missing post or user (403). */
export const blockedError = () => new HttpError(403, SAFETY_ERRORS.blocked);

const toMutedWord = (row: MutedWordRow): MutedWord => ({
  word: row.word,
  createdAt: formatDate(row.created_at instanceof Date ? row.created_at : new Date(row.created_at)),
});

/** A muted word as stored: trimmed, inner spaces made one, 1 to 100 characters; a lone '#' is no tag. */
function cleanWord(word: string): string {
  const cleaned = word.trim().replace(/\s+/gu, ' ');
  if (!cleaned || cleaned === '#') throw badRequest(SAFETY_ERRORS.mutedWordEmpty);
  if ([...cleaned].length > SAFETY_LIMITS.mutedWordMax) throw badRequest(SAFETY_ERRORS.mutedWordTooLong);
  return cleaned;
}

/**
 * An artist's block of someone on another server changed (issue 39): the federation module sends them the `Block`
 * (`blocked`), or its `Undo`, from the artist's actor, to their own inbox. Its id is `{actor}#blocks/{blockId}`.
 */
export type RemoteBlockChanged = (change: {
  userId: string;
  actor: { iri: string; inbox: string };
  blockId: string;
  blocked: boolean;
  /** The user's follow of them that the block ended (following out, issue 39): its Follow's id, whose Undo goes first. */
  endedFollowId?: string;
}) => Promise<void>;

/**
 * Block and mute (issue 23): who the user blocks and mutes, and their muted words. Every other module
 * applies them through the conditions of safety.sql.ts, or the relations remembered in `relations` (lists of
 * posts), which each change here forgets in this process before it answers (the others hear the event).
 */
export function createSafetyService({
  db,
  relations,
  followsChanged,
  remoteBlockChanged,
}: {
  db: Db;
  relations: RelationsCache;
  /** Sends the Block or its Undo to the person on another server (the federation module answers this port). */
  remoteBlockChanged: RemoteBlockChanged;
  /** A block ended follows both ways: these people's remembered viewer state goes at once (issue 26). */
  followsChanged?: (userIds: readonly string[]) => void;
}) {
  /** The other person's id, after checking they exist and are not the user. */
  async function target(userId: string, username: string, selfMessage: string): Promise<string> {
    const id = await selectUserIdByUsername(db, username);
    if (!id) throw notFound(ERRORS.userNotFound);
    if (id === userId) throw badRequest(selfMessage);
    return id;
  }

  const page = (query: PageQuery) => ({ limit: query.limit ?? PAGE_LIMITS.default, cursor: query.cursor });

  return {
    async block(userId: string, username: string): Promise<{ blocked: true }> {
      const id = await target(userId, username, SAFETY_ERRORS.cannotBlockSelf);
      await insertBlock(db, userId, id);
      relations.forget([userId, id]);
      followsChanged?.([userId, id]);
      return { blocked: true };
    },

    async unblock(userId: string, username: string): Promise<{ blocked: false }> {
      const id = await target(userId, username, SAFETY_ERRORS.cannotBlockSelf);
      await deleteBlock(db, userId, id);
      relations.forget([userId, id]);
      return { blocked: false };
    },

    /**
     * Blocks someone on another server (`remote_actors`' id, a follower's or notification actor's `_id`): their
     * follow, likes and boosts of the user's works and notifications to the user end (actions/federation.ts), the
     * user's own follow of them too (actions/following-out.ts: its `Undo` is sent, as Mastodon's block unfollows),
     * and a `Block` is sent to them the first time. Unknown person: 404.
     */
    async blockRemote(userId: string, remoteActorId: string): Promise<{ blocked: true }> {
      if (!(await remotePersonExists(db, remoteActorId))) throw notFound(ERRORS.userNotFound);
      const blocked = await blockRemotePerson(db, { userId, remoteActorId });
      // After the block is kept, so that no new follow of them can be written in between (it is refused).
      const ended = await endFollowOfRemotePerson(db, { userId, remoteActorId });
      if (ended) followsChanged?.([userId]);
      if (blocked) {
        const { iri, inbox, blockId } = blocked;
        await remoteBlockChanged({
          userId,
          actor: { iri, inbox },
          blockId,
          blocked: true,
          ...(ended?.activityId ? { endedFollowId: ended.activityId } : {}),
        });
      }
      return { blocked: true };
    },

    /** Lifts it, sending the `Undo` of the Block; what the block ended stays ended. Unknown person: 404. */
    async unblockRemote(userId: string, remoteActorId: string): Promise<{ blocked: false }> {
      if (!(await remotePersonExists(db, remoteActorId))) throw notFound(ERRORS.userNotFound);
      const lifted = await deleteRemoteBlock(db, userId, remoteActorId);
      if (lifted) {
        const { iri, inbox, blockId } = lifted;
        await remoteBlockChanged({ userId, actor: { iri, inbox }, blockId, blocked: false });
      }
      return { blocked: false };
    },

    async mute(userId: string, username: string): Promise<{ muted: true }> {
      const id = await target(userId, username, SAFETY_ERRORS.cannotMuteSelf);
      await insertMute(db, userId, id);
      relations.forget([userId]);
      return { muted: true };
    },

    async unmute(userId: string, username: string): Promise<{ muted: false }> {
      const id = await target(userId, username, SAFETY_ERRORS.cannotMuteSelf);
      await deleteMute(db, userId, id);
      relations.forget([userId]);
      return { muted: false };
    },

    blocks: (userId: string, query: PageQuery) => selectListPage(db, 'blocks', userId, page(query)),
    mutes: (userId: string, query: PageQuery) => selectListPage(db, 'mutes', userId, page(query)),

    async mutedWords(userId: string): Promise<{ words: MutedWord[] }> {
      return { words: (await selectMutedWords(db, userId)).map(toMutedWord) };
    },

    async addMutedWord(userId: string, word: string): Promise<MutedWord> {
      const outcome = await insertMutedWord(db, userId, cleanWord(word), SAFETY_LIMITS.mutedWordsMax);
      if (outcome === 'duplicate') throw new HttpError(409, SAFETY_ERRORS.mutedWordDuplicate);
      if (outcome === 'full') throw badRequest(SAFETY_ERRORS.tooManyMutedWords);
      relations.forget([userId]);
      return toMutedWord(outcome);
    },

    async removeMutedWord(userId: string, word: string): Promise<void> {
      const cleaned = word.trim().replace(/\s+/gu, ' ');
      if (!cleaned || !(await deleteMutedWord(db, userId, cleaned))) throw notFound(SAFETY_ERRORS.mutedWordNotFound);
      relations.forget([userId]);
    },
  };
}

export type SafetyService = ReturnType<typeof createSafetyService>;
