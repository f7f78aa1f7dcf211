import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PAGE_LIMITS, SEARCH_LIMITS } from '@share-arts/contract';
import { HttpError } from '../../lib/http-error.js';
import { toTag, type MastoAccount, type MastoStatus, type MastoTag } from './entities/index.js';
import { validationFailed } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { selectUserIdByUsername } from './mastodon-api.sql.js';
import { booleanParam, limitParam, MASTODON_ROUTE, offsetParam, textParam } from './params.js';

/** How far `offset` may go: our searches rank a few hundred candidates at most. */
const OFFSET_MAX = 400;
/** What a query may be (Mastodon's clients send what was typed). */
const QUERY_MAX = 500;

/** What a page of one of our searches answers. */
type Page<Item> = { items: Item[]; nextCursor: string | null };

/** Items `offset` to `offset + limit` of a list our services page by cursor. */
async function skipTake<Item>(
  offset: number,
  limit: number,
  read: (cursor: string | undefined, size: number) => Promise<Page<Item>>,
): Promise<Item[]> {
  const wanted = offset + limit;
  const items: Item[] = [];
  let cursor: string | undefined;
  while (items.length < wanted) {
    const page = await read(cursor, Math.min(PAGE_LIMITS.max, wanted - items.length));
    items.push(...page.items);
    if (!page.nextCursor || page.items.length === 0) break;
    cursor = page.nextCursor;
  }
  return items.slice(offset, wanted);
}

/** A handle (`@bob@host`, `bob@host`) or an address: what `resolve=true` looks up on its server. */
const resolvable = (q: string) => /^@?[^\s@]+@[^\s@]+\.[^\s@]+$/u.test(q) || /^https?:\/\/\S+$/iu.test(q);

/**
 * Search (https://docs.joinmastodon.org/methods/search/): GET /api/v2/search (accounts, statuses and hashtags; `type`
 * for one of them; `limit` 20 by default, at most 40; `offset` through our ranked pages) and GET
 * /api/v1/accounts/search, over our search: people by username and name, works by their words (or a #tag), tags
 * by their start. `resolve=true` with a handle or an address, signed in, asks the federation module's lookup
 * (the same as the web app's "Find someone on another server", within its limit a minute) and answers the person
 * or work it found first; a lookup that finds nothing leaves the usual results.
 */
export function searchRoutes(app: FastifyInstance, deps: MastodonDeps): void {
  const { users, posts, tags, federation, present, optionalScopes } = deps;
  const { db } = deps.shared;

  function queryOf(request: FastifyRequest): string {
    const q = textParam(request.query, 'q')?.trim();
    if (!q) throw validationFailed("q can't be blank");
    if (q.length > QUERY_MAX) throw validationFailed(`q must be at most ${QUERY_MAX} characters`);
    return q;
  }

  /** The person or work a lookup on another server finds, as an Account or a Status; nothing when it fails. */
  async function resolved(
    request: FastifyRequest,
    q: string,
    at: string,
  ): Promise<{ account?: MastoAccount; status?: MastoStatus }> {
    const me = request.userId;
    if (!me || !resolvable(q)) return {};
    try {
      const found = await federation.lookup(q.replace(/^@/u, ''), me, new URL(at).host);
      if (found.kind === 'person') {
        const id = await selectUserIdByUsername(db, found.username);
        const account = id ? (await present.accounts([id], at)).get(id) : undefined;
        return account ? { account } : {};
      }
      const [status] = await present.statuses([await posts.getPost(found.postId, me)], me, at);
      return status ? { status } : {};
    } catch (error) {
      // Nobody there, their server down, or too many lookups: the local results stand, as Mastodon answers.
      if (error instanceof HttpError && error.statusCode !== 401) return {};
      throw error;
    }
  }

  async function accounts(q: string, viewerId: string | null, offset: number, limit: number, at: string) {
    const cards = await skipTake(offset, limit, async (cursor, size) => {
      const page = await users.search(q.replace(/^@/u, ''), { limit: size, ...(cursor ? { cursor } : {}) }, viewerId);
      return { items: page.users, nextCursor: page.nextCursor };
    });
    const found = await present.accounts(
      cards.map((card) => card._id),
      at,
    );
    return cards.flatMap((card) => found.get(card._id) ?? []);
  }

  async function statuses(q: string, viewerId: string | null, offset: number, limit: number, at: string) {
    const artists = await users.artistIds(q);
    const items = await skipTake(offset, limit, async (cursor, size) => {
      const page = await posts.search(q, { limit: size, ...(cursor ? { cursor } : {}) }, viewerId, artists);
      return { items: page.posts, nextCursor: page.nextCursor };
    });
    return present.statuses(items, viewerId, at);
  }

  async function hashtags(q: string, offset: number, limit: number, at: string): Promise<MastoTag[]> {
    if (offset > 0) return [];
    const { tags: found } = await tags.suggest(q.split(/\s+/u)[0], Math.min(limit, SEARCH_LIMITS.tagsInAll * 4));
    return found.map((tag) => toTag(tag.tag, at));
  }

  app.get(
    '/v2/search',
    { schema: MASTODON_ROUTE, preHandler: optionalScopes('read', 'read:search') },
    async (request) => {
      const q = queryOf(request);
      const type = textParam(request.query, 'type');
      if (type !== undefined && !['accounts', 'statuses', 'hashtags'].includes(type)) {
        throw validationFailed('type must be accounts, statuses or hashtags');
      }
      const limit = limitParam(request.query, 20, 40);
      const offset = offsetParam(request.query, OFFSET_MAX);
      const resolve = booleanParam(request.query, 'resolve', false);
      const me = request.userId;
      const at = present.origin(request);
      const wants = (kind: string) => type === undefined || type === kind;
      const found = resolve && offset === 0 ? await resolved(request, q, at) : {};
      const [accountList, statusList, tagList] = await Promise.all([
        wants('accounts') ? accounts(q, me, offset, limit, at) : [],
        wants('statuses') ? statuses(q, me, offset, limit, at) : [],
        wants('hashtags') ? hashtags(q, offset, limit, at) : [],
      ]);
      const first = <Item extends { id?: string }>(item: Item | undefined, list: Item[]) =>
        item ? [item, ...list.filter((other) => other.id !== item.id)].slice(0, limit) : list;
      return {
        accounts: wants('accounts') ? first(found.account, accountList) : [],
        statuses: wants('statuses') ? first(found.status, statusList) : [],
        hashtags: tagList,
      };
    },
  );

  app.get(
    '/v1/accounts/search',
    { schema: MASTODON_ROUTE, preHandler: optionalScopes('read', 'read:accounts') },
    async (request) => {
      const q = queryOf(request);
      const limit = limitParam(request.query, 40, 80);
      const offset = offsetParam(request.query, OFFSET_MAX);
      const at = present.origin(request);
      const found = booleanParam(request.query, 'resolve', false) && offset === 0 ? await resolved(request, q, at) : {};
      const list = await accounts(q, request.userId, offset, Math.min(limit, PAGE_LIMITS.max), at);
      return found.account
        ? [found.account, ...list.filter((other) => other.id !== found.account!.id)].slice(0, limit)
        : list;
    },
  );
}
