import {
  ERRORS,
  FOLLOW_OUT_ERRORS,
  PAGE_LIMITS,
  SECURITY_ERRORS,
  type EditableUserFields,
  type FollowerPage,
  type PageQuery,
  type User,
  type UserPage,
  TAG_LIMITS,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { primaryOnly, type ReadRouting } from '../../db/replicas.js';
import { rankedPage } from '../../lib/keyset.js';
import { badRequest, HttpError, notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { blockedError } from '../safety/index.js';
import { selectMatchingArtists, type CommissionFilter } from '../commissions/index.js';
import {
  byId,
  byUsername,
  selectSuggestions,
  selectMentionable,
  selectPeopleMatches,
  selectUserCards,
  selectUserCardsByIds,
  selectUserWithLists,
  selectFollowerPage,
  setFollowRow,
  type PeopleMatch,
  selectEmail,
  selectPhotoMediaId,
  updateProfileRow,
  type ProfileChanges,
} from './users.sql.js';
import { toPersonSummary, toUser, toUserCards, toUserSummary } from './users.presenter.js';
import { DEFAULT_AVATAR_URL } from '../../lib/assets.js';
import { type MediaService, avatarUrl, mediaFileOfUrl } from '../media/index.js';
import type { SearchCache } from '../../lib/search-cache.js';

/** A profile link's refusals (translated like the server's other messages: issue 43). */
export const PROFILE_LINK_ERRORS = {
  notAddress: 'link must be a full web address starting with http:// or https://.',
  scheme: 'link must start with http:// or https://.',
} as const;

/** An http(s) URL or empty; any other scheme (javascript:, data:, …) could run code where it is shown. */
export function normalizeLink(link: string): string {
  const trimmed = link.trim();
  if (!trimmed) return '';
  const url = URL.parse(trimmed);
  if (!url) throw badRequest(PROFILE_LINK_ERRORS.notAddress);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest(PROFILE_LINK_ERRORS.scheme);
  }
  return url.href;
}

/**
 * `userPhoto` names an uploaded avatar by its id or by the URL of one of its files (`/media/<id>-…`, or
 * under MEDIA_PUBLIC_URL): the id starts the file's name.
 */
const MEDIA_ID_IN_FILE = /^([0-9a-f-]{36})-[A-Za-z0-9.-]+$/i;

/**
 * A follow of someone on another server (a shadow account, issue 39) began or ended: the federation module sends
 * their server the `Follow` named `activityId`, or its `Undo`.
 */
export interface RemoteFollowChange {
  followerId: string;
  followeeId: string;
  activityId: string;
  following: boolean;
}
export type RemoteFollowChanged = (change: RemoteFollowChange) => Promise<void>;
/** The id of a new `Follow` by the account (on its actor); undefined when nothing can be sent (no site address). */
export type RemoteFollowId = (followerId: string) => string | undefined;

/** Why a follow of someone on another server was refused, as the answer says it. */
const REMOTE_REFUSALS = {
  suspended: () => new HttpError(403, FOLLOW_OUT_ERRORS.suspended),
  blocked: () => new HttpError(403, FOLLOW_OUT_ERRORS.blocked),
  // They blocked the follower (their server's Block): told as any refused interaction between a blocked pair.
  blocksYou: () => blockedError(),
  unsendable: () => new HttpError(503, FOLLOW_OUT_ERRORS.unsendable),
} as const;

/** How many of the people a search names have their works among its posts. */
const ARTISTS_IN_SEARCH = 3;

export function createUsersService({
  db,
  reads = primaryOnly(db),
  media,
  searches,
  viewerChanged,
  remoteFollowId = () => undefined,
  remoteFollowChanged = async () => {},
}: {
  db: Db;
  /** Where the reads of pages may go: a caught-up replica, or the primary (db/replicas.ts, issue 25). */
  reads?: ReadRouting;
  media: MediaService;
  /** The ranked matches of recent people searches, dropped when anyone joins or is renamed. */
  searches: SearchCache<PeopleMatch>;
  /**
   * The user's follows changed (issue 26): this process forgets their remembered viewer state at once, before
   * the answer leaves (the others hear `viewer-changed`).
   */
  viewerChanged?: (userId: string) => void;
  /** The federation module's ports (issue 39): the id of a Follow to send, and sending it or its Undo. */
  remoteFollowId?: RemoteFollowId;
  remoteFollowChanged?: RemoteFollowChanged;
}) {
  async function getUser(userId: string, viewerId: string | null): Promise<User> {
    const row = isUuid(userId) ? await selectUserWithLists(db, byId(userId), viewerId) : undefined;
    // Someone who blocked the viewer is not there for them (issue 23).
    if (!row || row.blocked_viewer) throw notFound(ERRORS.userNotFound);
    return toUser(row, viewerId);
  }

  /** Adds or removes the follow and both users' counters (in one statement, see setFollowRow). */
  async function setFollow(userId: string, targetId: string, follow: boolean) {
    if (!isUuid(targetId)) throw notFound(ERRORS.userNotFound);
    if (targetId === userId) throw badRequest(ERRORS.cannotFollowSelf);
    // The id of the Follow their server hears if the target is someone on another server (stored with the follow).
    const activityId = follow ? (remoteFollowId(userId) ?? '') : '';
    const outcome = await setFollowRow(db, userId, targetId, follow, activityId);
    // A blocked pair: the one who blocked is told why; to the one blocked, the other is not there.
    if (outcome.blocker === userId) throw blockedError();
    if (outcome.blocker || !outcome.found) throw notFound(ERRORS.userNotFound);
    if (outcome.refused) throw REMOTE_REFUSALS[outcome.refused]();
    if (!outcome.changed) throw badRequest(follow ? ERRORS.alreadyFollowing : ERRORS.notFollowing);
    viewerChanged?.(userId);
    // Their server hears it once the follow is written (an Accept may come back at once: it finds the row).
    if (outcome.remote && outcome.activity_id) {
      await remoteFollowChanged({
        followerId: userId,
        followeeId: targetId,
        activityId: outcome.activity_id,
        following: follow,
      });
    }
    const [user, followUser] = await Promise.all([getUser(userId, userId), getUser(targetId, userId)]);
    return { user, followUser };
  }

  return {
    getUser,

    async getByUsername(username: string, viewerId: string | null): Promise<User> {
      const row = await selectUserWithLists(reads.reader(viewerId), byUsername(username), viewerId);
      if (!row || row.blocked_viewer) throw notFound(ERRORS.userNotFound);
      return toUser(row, viewerId);
    },

    /**
     * The account's followers, here and on other servers (issue 39), newest follow first, a page at a time; 404
     * for no such account, or one that blocked the viewer.
     */
    async followers(userId: string, query: PageQuery, viewerId: string | null): Promise<FollowerPage> {
      const found = await selectFollowerPage(reads.reader(viewerId), isUuid(userId) ? userId : null, viewerId, {
        cursor: query.cursor,
        limit: query.limit ?? PAGE_LIMITS.default,
      });
      if (!found) throw notFound(ERRORS.userNotFound);
      return { followers: found.page.map((row) => toPersonSummary(row.person)), nextCursor: found.nextCursor };
    },

    async list(query: PageQuery, viewerId: string | null): Promise<UserPage> {
      const limit = query.limit ?? PAGE_LIMITS.default;
      const { rows, nextCursor } = await selectUserCards(reads.reader(viewerId), {
        viewerId,
        limit,
        cursor: query.cursor,
      });
      return { users: toUserCards(rows, viewerId), nextCursor };
    },

    /**
     * The people a search names, as artists whose works it shows: the best ARTISTS_IN_SEARCH matches whose
     * username or name starts with the words (score 1 and up, see selectPeopleMatches), from the cache.
     */
    async artistIds(q: string): Promise<string[]> {
      const key = q.trim().toLowerCase();
      if (!key || key.startsWith('#')) return [];
      const matches = await searches.hits(key, () => selectPeopleMatches(db, key));
      return matches
        .filter((match) => match.score >= 1)
        .slice(0, ARTISTS_IN_SEARCH)
        .map((match) => match.id);
    },

    /**
     * People to suggest as someone types `@`: whose username starts with `prefix`, those the viewer
     * follows first. What no username can start with finds nobody (typing in progress, not an error).
     */
    async mentionable(viewerId: string | null, prefix: string | undefined, limit: number | undefined) {
      const typed = (prefix ?? '').replace(/^@/u, '').toLowerCase();
      if (!/^[a-z0-9_.]{0,30}$/u.test(typed)) return { users: [] };
      const rows = await selectMentionable(db, viewerId, typed, limit ?? TAG_LIMITS.suggestDefault);
      return { users: rows.map(toUserSummary) };
    },

    /**
     * People who match `q`, best first: the ranked matches from the cache (the same for everyone), then
     * the cards of one page with the viewer's relations. Keyset on (score, id).
     */
    async search(q: string, query: PageQuery, viewerId: string | null, open?: CommissionFilter): Promise<UserPage> {
      const key = q.trim().toLowerCase();
      const ranked = await searches.hits(key, () => selectPeopleMatches(db, key));
      // Narrowed to artists open for commissions (issue 42): the matches (at most a few hundred) that are, in one
      // statement, before the page is cut, so the ranked keyset pages them as it pages all.
      const matching = open
        ? new Set(
            await selectMatchingArtists(
              reads.reader(viewerId),
              ranked.map((match) => match.id),
              open,
            ),
          )
        : undefined;
      const matches = matching ? ranked.filter((match) => matching.has(match.id)) : ranked;
      const { page, nextCursor } = rankedPage(matches, {
        cursor: query.cursor,
        limit: query.limit ?? PAGE_LIMITS.default,
        shape: ['float', 'uuid'],
        key: (match) => [match.score, match.id],
      });
      const rows =
        page.length > 0
          ? await selectUserCardsByIds(
              reads.reader(viewerId),
              page.map((m) => m.id),
              viewerId,
            )
          : [];
      const cards = new Map(rows.map((row) => [row.id, row]));
      return {
        users: toUserCards(
          page.flatMap((m) => cards.get(m.id) ?? []),
          viewerId,
        ),
        nextCursor,
      };
    },

    async suggestions(query: PageQuery, viewerId: string): Promise<UserPage> {
      const limit = query.limit ?? PAGE_LIMITS.default;
      const { rows, nextCursor } = await selectSuggestions(reads.reader(viewerId), {
        viewerId,
        limit,
        cursor: query.cursor,
      });
      return { users: toUserCards(rows, viewerId), nextCursor };
    },

    follow: (userId: string, targetId: string) => setFollow(userId, targetId, true),
    unfollow: (userId: string, targetId: string) => setFollow(userId, targetId, false),

    async editProfile(userId: string, data: EditableUserFields): Promise<User> {
      const changes: ProfileChanges = {};
      if (data.firstName !== undefined) {
        const firstName = data.firstName.trim();
        if (!firstName) throw badRequest('firstName must not be empty.');
        changes.firstName = firstName;
      }
      if (data.lastName !== undefined) changes.lastName = data.lastName.trim();
      // The address changes only where who you are is confirmed first (issue 38: POST /api/account/email); the
      // spec's profile form sends it back unchanged, which is fine.
      if (data.email !== undefined && data.email.trim() !== (await selectEmail(db, userId))) {
        throw badRequest(SECURITY_ERRORS.emailChangeNeedsConfirmation);
      }
      if (data.bio !== undefined) changes.bio = data.bio.trim();
      if (data.link !== undefined) changes.link = normalizeLink(data.link);
      if (data.worksSignedInOnly !== undefined) changes.worksSignedInOnly = data.worksSignedInOnly;
      if (data.settings?.aiTrainingOptOut !== undefined) changes.aiTrainingOptOut = data.settings.aiTrainingOptOut;
      if (data.settings?.sensitiveMedia !== undefined) changes.sensitiveMedia = data.settings.sensitiveMedia;
      if (data.settings?.hideAiGenerated !== undefined) changes.hideAiGenerated = data.settings.hideAiGenerated;
      if (data.settings?.allowCollecting !== undefined) changes.allowCollecting = data.settings.allowCollecting;
      if (data.settings?.language !== undefined) changes.language = data.settings.language;
      let replacedPhoto: string | null = null;
      if (data.userPhoto !== undefined) {
        const currentPhoto = await selectPhotoMediaId(db, userId);
        // The default photo's URL is what a new account was handed: sent back unchanged, it keeps the default.
        if (data.userPhoto.trim() === '' || data.userPhoto === DEFAULT_AVATAR_URL) {
          changes.photoMediaId = null;
          changes.photoUrl = null;
        } else {
          const id = isUuid(data.userPhoto)
            ? data.userPhoto
            : MEDIA_ID_IN_FILE.exec(mediaFileOfUrl(data.userPhoto) ?? '')?.[1];
          if (!id)
            throw badRequest(
              'userPhoto must be a picture uploaded with POST /api/media (purpose=avatar): its _id or URL.',
            );
          const picture = await media.findOwned(userId, id, { purpose: 'avatar' });
          changes.photoMediaId = picture.id;
          changes.photoUrl = avatarUrl(picture);
        }
        if (currentPhoto && currentPhoto !== changes.photoMediaId) replacedPhoto = currentPhoto;
      }
      if (Object.keys(changes).length > 0) {
        const { found, authorChanged } = await updateProfileRow(db, userId, changes);
        if (!found) throw notFound(ERRORS.userNotFound);
        if (authorChanged) searches.clear();
      }
      if (replacedPhoto) await media.deleteMedia(replacedPhoto);
      return getUser(userId, userId);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
