import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../lib/ids.js';
import { recordNotFound } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { selectReactionKey } from './mastodon-api.sql.js';
import { cursorOf, isCursor, MastoPageQuery, pageLimit, setLinkHeader } from './paging.js';

/**
 * Favourites and bookmarks (https://docs.joinmastodon.org/methods/favourites/, …/bookmarks/): the works the viewer
 * likes, the most recently liked first (the profile's Liked tab), and those they saved (Saved). As on Mastodon, the
 * `Link` header is the way to page (its `max_id` is our cursor); a work's id as `max_id` works too (the page after
 * the viewer's like or save of it). `since_id`/`min_id` answer the first page.
 */
export async function favouritesRoutes(root: FastifyInstance, deps: MastodonDeps): Promise<void> {
  const scope = root.withTypeProvider<TypeBoxTypeProvider>();
  const { posts, present, requireScopes } = deps;
  const { db } = deps.shared;

  for (const [path, kind, scopes] of [
    ['/v1/favourites', 'like', ['read', 'read:favourites']],
    ['/v1/bookmarks', 'bookmark', ['read', 'read:bookmarks']],
  ] as const) {
    scope.get(
      path,
      { preHandler: requireScopes(...scopes), schema: { querystring: MastoPageQuery } },
      async (request, reply) => {
        const me = request.userId!;
        const at = present.origin(request);
        const limit = pageLimit(request.query);
        const maxId = request.query.max_id;
        let cursor: string | undefined;
        if (maxId) {
          if (isCursor(maxId)) cursor = maxId;
          else {
            const key = isUuid(maxId) ? await selectReactionKey(db, kind, me, maxId) : undefined;
            if (!key) throw recordNotFound();
            cursor = cursorOf(key);
          }
        }
        const page = await (kind === 'like' ? posts.liked : posts.bookmarked)({ limit, cursor }, me);
        const statuses = await present.statuses(page.posts, me, at);
        setLinkHeader(reply, request, at, { next: page.nextCursor, prev: statuses[0]?.id });
        return statuses;
      },
    );
  }
}
