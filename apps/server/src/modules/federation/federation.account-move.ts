import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  ACCOUNT_MOVE_COOLDOWN_DAYS,
  ACCOUNT_MOVE_ERRORS,
  LOOKUP_ERRORS,
  AccountAliasesBody,
  AccountAliasesResponse,
  AccountMoveBody,
  AccountMoveResponse,
  type AccountAliasesResponse as Aliases,
  type AccountMoveResponse as MoveState,
} from '@share-arts/contract';
import { cancelMoveAway, moveLocalFollows, setAccountAliases, type MoveSource } from '../../actions/account-move.js';
import type { Db } from '../../db/client.js';
import { DEFAULT_AVATAR_URL } from '../../lib/assets.js';
import { HttpError, refusal } from '../../lib/http-error.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { errorResponses } from '../../lib/route-schema.js';
import type { RemoteFollowChange } from './federation.outbound-follows.js';
import { freshActor, keepPerson, lookup, LOOKUPS_PER_USER, type RemotePeopleDeps } from './federation.remote-people.js';
import {
  selectAccountAliases,
  selectActorByUsername,
  selectMoveState,
  selectShadowByHandle,
  selectShadowByIri,
} from './federation.sql.js';

/**
 * Moving accounts (issue 40, docs/federation.md "Moving an account"). An artist who moves here from Mastodon or
 * Pixelfed first names their old account (`PUT /api/federation/aliases`): this account's actor then says it is
 * also known as it (`alsoKnownAs`), which their old server checks before it sends its followers a `Move` to here.
 * And a `Move` of someone our accounts follow (checked by the inbox: the new actor names the old one) carries those
 * follows to the new account, here or elsewhere (`carryFollows`).
 */

/** The aliases as the API shows them: each account's handle and page when known, else its actor id. */
async function aliasesOf(db: Db, userId: string): Promise<Aliases> {
  const rows = await selectAccountAliases(db, userId);
  return {
    aliases: rows.map((row) => ({
      // An account no longer known here by handle (its row was removed) is named by its actor id, which a lookup
      // reads again when the list is sent back.
      handle: row.handle ?? row.iri,
      url: row.profile_url ?? row.iri,
    })),
  };
}

/** GET and PUT /api/federation/aliases: the signed-in artist's other accounts. */
export const aliasesRoutes: FastifyPluginAsyncTypebox<{
  deps: RemotePeopleDeps;
  guards: { requireUser(request: FastifyRequest): Promise<void> };
  limiter: RateLimiter;
  localHost: (request: FastifyRequest) => string;
}> = async (app, { deps, guards, limiter, localHost }) => {
  app.get(
    '/federation/aliases',
    {
      preHandler: [guards.requireUser],
      schema: {
        tags: ['federation'],
        summary: 'Your accounts on other servers',
        description:
          "The accounts elsewhere that this account says it is also known as (its actor's `alsoKnownAs`): an old " +
          'account can move its followers here only once it is named here.',
        response: { 200: AccountAliasesResponse, ...errorResponses(401) },
      },
    },
    async (request) => aliasesOf(deps.db, request.userId!),
  );

  app.put(
    '/federation/aliases',
    {
      preHandler: [guards.requireUser],
      schema: {
        tags: ['federation'],
        summary: 'Name your accounts on other servers (before moving here)',
        description:
          'Sets the whole list of your other accounts (handles or profile addresses), each found on its server ' +
          `first. 400: "${ACCOUNT_MOVE_ERRORS.notAPerson}" or "${ACCOUNT_MOVE_ERRORS.thisSite}" ({query} put in); the ` +
          "lookup's own 403, 404 and 502 when an account cannot be found. Each account not known here yet counts as a lookup.",
        body: AccountAliasesBody,
        response: { 200: AccountAliasesResponse, ...errorResponses(400, 401, 403, 404, 429, 502) },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const iris: string[] = [];
      for (const account of request.body.accounts) {
        const query = account.trim();
        // An account known here already (one named before, sent back with the list) is taken without a fetch, so a
        // server that is down keeps nobody from changing the rest of the list.
        const known =
          (await selectShadowByHandle(deps.db, query.replace(/^@/, ''))) ??
          (/^https?:\/\//i.test(query) ? await selectShadowByIri(deps.db, query) : undefined);
        let iri = known?.iri;
        if (!iri) {
          await limiter.hit(`federation-lookup:${userId}`, LOOKUPS_PER_USER);
          const found = await lookup(deps, query, userId, localHost(request));
          if (found.kind !== 'person') throw refusal(400, ACCOUNT_MOVE_ERRORS.notAPerson, { query });
          iri = (await selectShadowByHandle(deps.db, found.username))?.iri;
          if (!iri) throw refusal(400, ACCOUNT_MOVE_ERRORS.thisSite, { query });
        }
        if (!iris.includes(iri)) iris.push(iri);
      }
      await setAccountAliases(deps.db, userId, iris);
      return aliasesOf(deps.db, userId);
    },
  );
};

/**
 * The follows a verified `Move` carries: every follow by our accounts of the old actor's shadow account becomes a
 * follow of `to` (the new actor's shadow account, or an account here that names the old actor), then the old
 * Follows are undone and the new ones sent (`sendFollow`, the users module's follow port's sender). Answers how
 * many follows moved (undefined when the old account moved too recently to move again).
 */
export async function carryFollows(
  db: Db,
  move: MoveSource & { toUserId: string; toRemote: boolean; followIdPrefix: string },
  sendFollow: (change: RemoteFollowChange) => Promise<void>,
): Promise<number | undefined> {
  const moved = await moveLocalFollows(db, move);
  if (!moved) return undefined;
  for (const follow of moved) {
    if (follow.oldActivityId) {
      await sendFollow({
        followerId: follow.followerId,
        followeeId: follow.oldFolloweeId,
        activityId: follow.oldActivityId,
        following: false,
      });
    }
    if (follow.newActivityId) {
      await sendFollow({
        followerId: follow.followerId,
        followeeId: move.toUserId,
        activityId: follow.newActivityId,
        following: true,
      });
    }
  }
  return moved.length;
}

/** What moving away needs from the federation module: its actors' ids, the Follow sender and the Move's delivery. */
export interface MoveAwayDeps {
  /** The actor id of one of our accounts; undefined when the site's public address is not set (no federation). */
  actorIri(userId: string): string | undefined;
  /** What our Follows' ids start with (an actor id without its identifier). */
  followIdPrefix: string;
  sendFollow(change: RemoteFollowChange): Promise<void>;
  sendMove(userId: string, target: URL): Promise<void>;
}

/** The account's move as the API shows it. */
async function moveStateOf(db: Db, userId: string): Promise<MoveState> {
  const row = await selectMoveState(db, userId);
  const movedAt = row?.moved_at ? new Date(row.moved_at).toISOString() : null;
  if (!row?.to_id || !row.to_username) return { movedTo: null, movedAt };
  const handle = row.to_handle;
  const url = [row.to_profile_url, row.to_iri].find((candidate) => candidate && /^https?:\/\//i.test(candidate));
  return {
    movedTo: handle
      ? {
          _id: row.to_id,
          username: handle,
          firstName: row.to_first_name?.trim() || handle.split('@')[0] || handle,
          lastName: '',
          userPhoto: DEFAULT_AVATAR_URL,
          remote: { handle, url: url ?? '' },
        }
      : {
          _id: row.to_id,
          username: row.to_username,
          firstName: row.to_first_name ?? '',
          lastName: row.to_last_name ?? '',
          userPhoto: row.to_photo_url ?? DEFAULT_AVATAR_URL,
        },
    movedAt,
  };
}

/** The account a move goes to: a remote person's shadow account, with the actor id its Move names. */
interface MoveTarget {
  userId: string;
  iri: string;
}

/**
 * GET, POST and DELETE /api/federation/move: moving this account away (issue 40, docs/federation.md "Moving away").
 * The new account must name this one among its aliases (read afresh from its server); then this account's actor says
 * `movedTo`, its followers here follow the new account (at once, or asking its server), and the servers of its
 * followers elsewhere are sent a `Move`, after which they follow the new account for their people.
 */
export const moveAwayRoutes: FastifyPluginAsyncTypebox<{
  deps: RemotePeopleDeps;
  move: MoveAwayDeps;
  guards: { requireUser(request: FastifyRequest): Promise<void> };
  requireConfirmed(request: FastifyRequest): Promise<void>;
  limiter: RateLimiter;
  localHost: (request: FastifyRequest) => string;
}> = async (app, { deps, move, guards, requireConfirmed, limiter, localHost }) => {
  app.get(
    '/federation/move',
    {
      preHandler: [guards.requireUser],
      schema: {
        tags: ['federation'],
        summary: 'Where your account moved',
        description: 'The account this one moved to (null when it has not), and when.',
        response: { 200: AccountMoveResponse, ...errorResponses(401) },
      },
    },
    async (request) => moveStateOf(deps.db, request.userId!),
  );

  /** The account `query` names (a handle, a profile address, a username here), read afresh when elsewhere. */
  /**
   * The account on another server that `query` names (a handle or a profile address), read afresh. An account here
   * is refused: its aliases name accounts elsewhere only (PUT /api/federation/aliases), so it could not name this one.
   */
  async function targetOf(request: FastifyRequest, query: string, ours: string): Promise<MoveTarget> {
    const userId = request.userId!;
    // `{you}`: this account's address, which the new account must name as an alias.
    const say = (message: string) => refusal(400, message, { query, you: ours });
    await limiter.hit(`federation-lookup:${userId}`, LOOKUPS_PER_USER);
    const found = await lookup(deps, query, userId, localHost(request));
    if (found.kind !== 'person') throw say(ACCOUNT_MOVE_ERRORS.moveNotAPerson);
    const shadow = await selectShadowByHandle(deps.db, found.username);
    if (!shadow) {
      const here = await selectActorByUsername(deps.db, found.username);
      throw here?.id === userId
        ? new HttpError(400, ACCOUNT_MOVE_ERRORS.moveToSelf)
        : say(ACCOUNT_MOVE_ERRORS.moveHere);
    }
    // Read afresh: the alias was added on the new server a minute ago, and what was kept may be older.
    const actor = await freshActor(deps, shadow.iri).catch(() => null);
    if (!actor) throw refusal(502, LOOKUP_ERRORS.noServer, { host: new URL(shadow.iri).host });
    await keepPerson(deps, actor);
    if (actor.successorId) throw say(ACCOUNT_MOVE_ERRORS.moveMoved);
    if (!actor.aliasIds.some((alias) => alias.href === ours)) throw say(ACCOUNT_MOVE_ERRORS.moveNotNamed);
    return { userId: shadow.user_id, iri: shadow.iri };
  }

  app.post(
    '/federation/move',
    {
      preHandler: [guards.requireUser, requireConfirmed],
      schema: {
        tags: ['federation'],
        summary: 'Move your account to one on another server',
        description:
          'The new account must name this one among its aliases first (Mastodon: Preferences → Account → "Moving from ' +
          'a different account"); it is read afresh from its server. Then your followers here follow it (asking its ' +
          "server when it is elsewhere), your followers' servers are sent a Move (they follow it for their people), and " +
          `your profile says where you went. Once in ${ACCOUNT_MOVE_COOLDOWN_DAYS} days. 400: "${ACCOUNT_MOVE_ERRORS.moveNotNamed}", ` +
          `"${ACCOUNT_MOVE_ERRORS.moveToSelf}", "${ACCOUNT_MOVE_ERRORS.moveTooSoon}", "${ACCOUNT_MOVE_ERRORS.moveMoved}", ` +
          `"${ACCOUNT_MOVE_ERRORS.moveNotAPerson}"; 403 until you confirmed who you are in the last 10 minutes; the ` +
          "lookup's 403, 404 and 502.",
        body: AccountMoveBody,
        response: { 200: AccountMoveResponse, ...errorResponses(400, 401, 403, 404, 409, 429, 502) },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const ours = move.actorIri(userId);
      if (!ours) throw new HttpError(400, 'This site has no public address (PUBLIC_ORIGIN): it cannot move accounts.');
      const tooSoon = (movedAt: string | null) => {
        const next = movedAt ? new Date(movedAt).getTime() + ACCOUNT_MOVE_COOLDOWN_DAYS * 86_400_000 : 0;
        if (next > Date.now())
          throw refusal(400, ACCOUNT_MOVE_ERRORS.moveTooSoon, { date: new Date(next).toISOString().slice(0, 10) });
      };
      tooSoon((await moveStateOf(deps.db, userId)).movedAt);
      const target = await targetOf(request, request.body.account.trim(), ours);
      const moved = await carryFollows(
        deps.db,
        { fromUserId: userId, toUserId: target.userId, toRemote: true, followIdPrefix: move.followIdPrefix },
        move.sendFollow,
      );
      if (moved === undefined) {
        // Another move of this account won the race: its 30 days started a moment ago.
        tooSoon((await moveStateOf(deps.db, userId)).movedAt);
        throw new HttpError(409, 'Your account changed while it moved: try again.');
      }
      await move.sendMove(userId, new URL(target.iri));
      return { ...(await moveStateOf(deps.db, userId)), followersMoved: moved };
    },
  );

  app.delete(
    '/federation/move',
    {
      preHandler: [guards.requireUser, requireConfirmed],
      schema: {
        tags: ['federation'],
        summary: 'Cancel the redirect of a move',
        description:
          'Your profile and actor stop saying where you moved. The followers that moved stay with the new account, and ' +
          `the ${ACCOUNT_MOVE_COOLDOWN_DAYS} days before another move still run (as on Mastodon).`,
        response: { 200: AccountMoveResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      await cancelMoveAway(deps.db, request.userId!);
      return moveStateOf(deps.db, request.userId!);
    },
  );
};
