import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  ACCOUNT_MOVE_ERRORS,
  AccountAliasesBody,
  AccountAliasesResponse,
  type AccountAliasesResponse as Aliases,
} from '@share-arts/contract';
import { moveLocalFollows, setAccountAliases } from '../../actions/account-move.js';
import type { Db } from '../../db/client.js';
import { HttpError } from '../../lib/http-error.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { errorResponses } from '../../lib/route-schema.js';
import type { RemoteFollowChange } from './federation.outbound-follows.js';
import { lookup, LOOKUPS_PER_USER, type RemotePeopleDeps } from './federation.remote-people.js';
import { selectAccountAliases, selectShadowByHandle, selectShadowByIri } from './federation.sql.js';

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
          if (found.kind !== 'person')
            throw new HttpError(400, ACCOUNT_MOVE_ERRORS.notAPerson.replace('{query}', query));
          iri = (await selectShadowByHandle(deps.db, found.username))?.iri;
          if (!iri) throw new HttpError(400, ACCOUNT_MOVE_ERRORS.thisSite.replace('{query}', query));
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
 * many follows moved.
 */
export async function carryFollows(
  db: Db,
  move: { fromIri: string; toUserId: string; toRemote: boolean; followIdPrefix: string },
  sendFollow: (change: RemoteFollowChange) => Promise<void>,
): Promise<number> {
  const moved = await moveLocalFollows(db, move);
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
