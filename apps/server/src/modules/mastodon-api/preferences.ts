import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_LIMITS, type PersonSummary } from '@share-arts/contract';
import { toAccount, type MastoAccount } from './entities/index.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { selectSensitiveMedia } from './more.sql.js';
import { limitParam, MASTODON_ROUTE, textParam } from './params.js';
import { isCursor, setLinkHeader } from './paging.js';

/** Our setting for sensitive works as Mastodon's `reading:expand:media`. */
const EXPAND_MEDIA = { show: 'show_all', blur: 'default', hide: 'hide_all' } as const;

/**
 * GET /api/v1/preferences (every work is public here and carries its own warning, so posting defaults are public and
 * not sensitive; how sensitive works are shown is the person's own setting), and the lists of the people the person
 * blocks and mutes (GET /api/v1/blocks, /api/v1/mutes) through the safety module, newest first, paged by our cursor
 * in the Link header. A blocked person on another server is an Account made from their handle.
 */
export function preferencesRoutes(app: FastifyInstance, deps: MastodonDeps): void {
  const { safety, present, requireScopes, shared } = deps;

  app.get(
    '/v1/preferences',
    { schema: MASTODON_ROUTE, preHandler: requireScopes('read', 'read:accounts') },
    async (request) => {
      const media = await selectSensitiveMedia(shared.db, request.userId!);
      return {
        'posting:default:visibility': 'public',
        'posting:default:sensitive': false,
        'posting:default:language': null,
        'posting:default:quote_policy': 'nobody',
        'reading:expand:media': EXPAND_MEDIA[media],
        'reading:expand:spoilers': false,
        'reading:autoplay:gifs': true,
      };
    },
  );

  async function people(
    request: FastifyRequest,
    reply: FastifyReply,
    list: 'blocks' | 'mutes',
  ): Promise<MastoAccount[]> {
    const maxId = textParam(request.query, 'max_id');
    const limit = limitParam(request.query, PAGE_LIMITS.default, PAGE_LIMITS.max);
    const page = await safety[list](request.userId!, { limit, ...(maxId && isCursor(maxId) ? { cursor: maxId } : {}) });
    const at = present.origin(request);
    setLinkHeader(reply, request, at, { next: page.nextCursor });
    return accountsOf(deps, page.users, at);
  }

  app.get(
    '/v1/blocks',
    { schema: MASTODON_ROUTE, preHandler: requireScopes('read', 'read:blocks', 'follow') },
    (request, reply) => people(request, reply, 'blocks'),
  );
  app.get(
    '/v1/mutes',
    { schema: MASTODON_ROUTE, preHandler: requireScopes('read', 'read:mutes', 'follow') },
    (request, reply) => people(request, reply, 'mutes'),
  );
}

/** People of a list as Accounts, in order: ours read whole (counts), someone on another server from their summary. */
async function accountsOf(deps: MastodonDeps, people: readonly PersonSummary[], at: string): Promise<MastoAccount[]> {
  const local = people.filter((person) => !person.remote).map((person) => person._id);
  const accounts = await deps.present.accounts(local, at);
  return people.map((person) => accounts.get(person._id) ?? toAccount(person, at));
}
