import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERRORS, PAGE_LIMITS } from '@share-arts/contract';
import { HttpError } from '../../lib/http-error.js';
import { toTag } from './entities/index.js';
import { recordNotFound, validationFailed } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { limitParam, MASTODON_ROUTE, textParam } from './params.js';
import { isCursor, setLinkHeader } from './paging.js';

/**
 * Hashtags (https://docs.joinmastodon.org/methods/tags/ and followed_tags/) over our tags module: a tag, following
 * and unfollowing it (our followed tags, at most 500: past it 422), the followed tags in the order
 * followed, newest first (paged by our cursor in the Link header). A tag that is not a tag (punctuation…) is
 * `Record not found`. `history` is [] (we keep a tag's total, not its use per day).
 */
export function tagsRoutes(app: FastifyInstance, { tags, present, requireScopes, optionalScopes }: MastodonDeps): void {
  const nameOf = (request: FastifyRequest) => (request.params as { name: string }).name.replace(/^#/u, '');
  /** Not a tag: not found, as Mastodon answers a tag it cannot have; past the most tags one may follow: 422. */
  const refused = (error: unknown): never => {
    if (error instanceof HttpError && error.message === ERRORS.invalidTag) throw recordNotFound();
    if (error instanceof HttpError && error.message === ERRORS.tooManyFollowedTags)
      throw validationFailed(error.message);
    throw error;
  };

  app.get(
    '/v1/tags/:name',
    { schema: MASTODON_ROUTE, preHandler: optionalScopes('read', 'read:follows') },
    async (request) => {
      const state = await tags.state(nameOf(request), request.userId).catch(refused);
      return toTag(state.tag, present.origin(request), request.userId ? { following: state.following } : {});
    },
  );

  for (const [action, follow] of [
    ['follow', true],
    ['unfollow', false],
  ] as const) {
    app.post(
      `/v1/tags/:name/${action}`,
      { schema: MASTODON_ROUTE, preHandler: requireScopes('write', 'write:follows', 'follow') },
      async (request) => {
        const state = await tags.setFollow(request.userId!, nameOf(request), follow).catch(refused);
        return toTag(state.tag, present.origin(request), { following: state.following });
      },
    );
  }

  app.get(
    '/v1/followed_tags',
    { schema: MASTODON_ROUTE, preHandler: requireScopes('read', 'read:follows', 'follow') },
    async (request, reply) => {
      const maxId = textParam(request.query, 'max_id');
      // Mastodon's default is 100; our pages hold at most PAGE_LIMITS.max.
      const limit = limitParam(request.query, PAGE_LIMITS.max, PAGE_LIMITS.max);
      const page = await tags.followed(request.userId!, {
        limit,
        ...(maxId && isCursor(maxId) ? { cursor: maxId } : {}),
      });
      const at = present.origin(request);
      setLinkHeader(reply, request, at, { next: page.nextCursor });
      return page.tags.map((tag) => toTag(tag.tag, at, { following: true }));
    },
  );
}
