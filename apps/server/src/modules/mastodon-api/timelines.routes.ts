import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { PostPageResult } from '../posts/index.js';
import { isUuid } from '../../lib/ids.js';
import type { MastoStatus } from './entities/index.js';
import { recordNotFound, validationFailed } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { selectPostKey } from './mastodon-api.sql.js';
import { cursorOf, isCursor, MastoPageQuery, newerThan, pageLimit, setLinkHeader } from './paging.js';

const Bool = Type.Union([
  Type.Boolean(),
  Type.Literal('true'),
  Type.Literal('false'),
  Type.Literal('1'),
  Type.Literal('0'),
]);
const truthy = (value: boolean | string | undefined) => value === true || value === 'true' || value === '1';

/**
 * One page of a newest-first list of works as Statuses, with Mastodon's paging (paging.ts): `max_id` a work's id
 * (or our cursor), `since_id`/`min_id` read from the top down to that work, the `Link` header. `keep` drops what a
 * parameter leaves out (local, remote, only_media): a page may then hold fewer than `limit`, as on Mastodon.
 */
export async function statusPage(
  deps: MastodonDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  query: MastoPageQuery,
  list: (page: { limit: number; cursor: string | undefined }) => Promise<PostPageResult>,
  keep: (status: MastoStatus) => boolean = () => true,
): Promise<MastoStatus[]> {
  const { present } = deps;
  const at = present.origin(request);
  const viewerId = request.userId;
  const limit = pageLimit(query);
  const read = async (cursor: string | undefined) => {
    const page = await list({ limit, cursor });
    const items = (await present.statuses(page.posts, viewerId, at)).filter(keep);
    return {
      items,
      nextCursor: page.nextCursor,
      lastId: page.posts.length > 0 ? (JSON.parse(page.posts.at(-1)!.text) as { _id: string })._id : undefined,
    };
  };
  const newer = query.min_id ?? query.since_id;
  if (newer) {
    const items = await newerThan(
      newer,
      query.min_id ? 'min' : 'since',
      limit,
      (status: MastoStatus) => status.id,
      read,
    );
    setLinkHeader(reply, request, at, { next: items.at(-1)?.id, prev: items[0]?.id });
    return items;
  }
  let cursor: string | undefined;
  if (query.max_id) {
    if (isCursor(query.max_id)) cursor = query.max_id;
    else {
      const key = isUuid(query.max_id) ? await selectPostKey(deps.shared.db, query.max_id) : undefined;
      if (!key) throw recordNotFound();
      cursor = cursorOf(key);
    }
  }
  const page = await read(cursor);
  // The next page goes on after the last work read (even one a filter dropped): its id, as Mastodon's max_id.
  setLinkHeader(reply, request, at, { next: page.nextCursor ? page.lastId : null, prev: page.items[0]?.id });
  return page.items;
}

/** Timelines (https://docs.joinmastodon.org/methods/timelines/): Home, everyone's (public), a tag's. */
export async function timelinesRoutes(root: FastifyInstance, deps: MastodonDeps): Promise<void> {
  const scope = root.withTypeProvider<TypeBoxTypeProvider>();
  const { posts, tags, requireScopes, optionalScopes } = deps;

  // Home: the viewer's works and those of the people and tags they follow, as the web app's Home.
  scope.get(
    '/v1/timelines/home',
    { preHandler: requireScopes('read', 'read:statuses'), schema: { querystring: MastoPageQuery } },
    async (request, reply) => {
      const items = await statusPage(deps, request, reply, request.query, ({ limit, cursor }) =>
        posts.feed({ limit, cursor, sort: 'latest' }, request.userId!),
      );
      // The JSON Fastify would write (JSON.stringify), each Status's written once (presenter `json`).
      return reply.type('application/json; charset=utf-8').send(deps.present.json(items));
    },
  );

  // Everyone's works, newest first (Explore's latest): `local` those of accounts here, `remote` those from other
  // servers (following out), `only_media` those with pictures (all but a work showing the default picture).
  scope.get(
    '/v1/timelines/public',
    {
      preHandler: optionalScopes('read', 'read:statuses'),
      schema: {
        querystring: Type.Object({
          ...MastoPageQuery.properties,
          local: Type.Optional(Bool),
          remote: Type.Optional(Bool),
          only_media: Type.Optional(Bool),
        }),
      },
    },
    async (request, reply) => {
      const { local, remote, only_media: onlyMedia } = request.query;
      if (truthy(local) && truthy(remote)) throw validationFailed('local and remote exclude each other');
      return statusPage(
        deps,
        request,
        reply,
        request.query,
        ({ limit, cursor }) => posts.list({ limit, cursor, sort: 'latest' }, request.userId),
        (status) =>
          (!truthy(local) || !status.account.acct.includes('@')) &&
          (!truthy(remote) || status.account.acct.includes('@')) &&
          (!truthy(onlyMedia) || status.media_attachments.length > 0),
      );
    },
  );

  // A tag's works, newest first. `any[]`, `all[]` and `none[]` (more tags) are not supported: refused.
  scope.get(
    '/v1/timelines/tag/:hashtag',
    {
      preHandler: optionalScopes('read', 'read:statuses'),
      schema: {
        params: Type.Object({ hashtag: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: Type.Object(
          {
            ...MastoPageQuery.properties,
            local: Type.Optional(Bool),
            remote: Type.Optional(Bool),
            only_media: Type.Optional(Bool),
          },
          { additionalProperties: true },
        ),
      },
    },
    async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      if (['any', 'all', 'none', 'any[]', 'all[]', 'none[]'].some((name) => query[name] !== undefined)) {
        throw validationFailed('any, all and none are not supported on this server: ask for one tag');
      }
      const tag = request.params.hashtag.replace(/^#/, '').toLowerCase();
      const { local, remote, only_media: onlyMedia } = request.query;
      return statusPage(
        deps,
        request,
        reply,
        request.query,
        ({ limit, cursor }) => tags.posts(tag, { limit, cursor, sort: 'latest' }, request.userId),
        (status) =>
          (!truthy(local) || !status.account.acct.includes('@')) &&
          (!truthy(remote) || status.account.acct.includes('@')) &&
          (!truthy(onlyMedia) || status.media_attachments.length > 0),
      );
    },
  );
}
