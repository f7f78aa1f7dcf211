import type { FastifyInstance, FastifyReply } from 'fastify';
import { RECORD_NOT_FOUND } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { MASTODON_ROUTE } from './params.js';

/** What Mastodon answers for a record that is not there: apps treat it as "this server has none". */
const recordNotFound = (reply: FastifyReply) => reply.code(404).send({ error: RECORD_NOT_FOUND });

/**
 * The features Mastodon has and Share Arts does not, answered as a Mastodon server without them does, so that apps
 * degrade gracefully (issue 45): their lists are empty, one of their records is not found (404), and what would make
 * one is refused with 422 naming the missing feature. Private conversations (direct messages: our inquiries are
 * their own thing), lists, polls, trends, suggestions, follow requests (no account here is locked), blocked domains
 * per person, endorsements, featured tags and the v2 grouped notifications.
 */
export function absentRoutes(app: FastifyInstance, { requireScopes }: MastodonDeps): void {
  const signedIn = { schema: MASTODON_ROUTE, preHandler: requireScopes('read', 'write', 'follow') };
  const empty = async () => [];
  const unsupported = (what: string) => async (_request: unknown, reply: FastifyReply) =>
    reply.code(422).send({ error: `Validation failed: ${what} are not available on this server` });

  // Conversations (direct messages).
  app.get('/v1/conversations', signedIn, empty);
  app.delete('/v1/conversations/:id', signedIn, async (_request, reply) => recordNotFound(reply));
  app.post('/v1/conversations/:id/read', signedIn, async (_request, reply) => recordNotFound(reply));

  // Lists.
  app.get('/v1/lists', signedIn, empty);
  app.get('/v1/lists/:id', signedIn, async (_request, reply) => recordNotFound(reply));
  app.get('/v1/lists/:id/accounts', signedIn, async (_request, reply) => recordNotFound(reply));
  app.post('/v1/lists', signedIn, unsupported('Lists'));
  app.get('/v1/timelines/list/:id', signedIn, async (_request, reply) => recordNotFound(reply));
  app.get('/v1/accounts/:id/lists', signedIn, empty);

  // Polls.
  app.get('/v1/polls/:id', { schema: MASTODON_ROUTE }, async (_request, reply) => recordNotFound(reply));
  app.post('/v1/polls/:id/votes', signedIn, async (_request, reply) => recordNotFound(reply));

  // Trends and suggestions.
  app.get('/v1/trends', { schema: MASTODON_ROUTE }, empty);
  app.get('/v1/trends/tags', { schema: MASTODON_ROUTE }, empty);
  app.get('/v1/trends/statuses', { schema: MASTODON_ROUTE }, empty);
  app.get('/v1/trends/links', { schema: MASTODON_ROUTE }, empty);
  app.get('/v1/suggestions', signedIn, empty);
  app.get('/v2/suggestions', signedIn, empty);
  app.delete('/v1/suggestions/:id', signedIn, async () => ({}));

  // Follow requests: nobody is locked here, so there are never any.
  app.get('/v1/follow_requests', signedIn, empty);
  app.post('/v1/follow_requests/:id/authorize', signedIn, async (_request, reply) => recordNotFound(reply));
  app.post('/v1/follow_requests/:id/reject', signedIn, async (_request, reply) => recordNotFound(reply));

  // Domain blocks per person, endorsements, featured tags.
  app.get('/v1/domain_blocks', signedIn, empty);
  app.post('/v1/domain_blocks', signedIn, unsupported('Blocks of whole servers by a person'));
  app.delete('/v1/domain_blocks', signedIn, async () => ({}));
  app.get('/v1/endorsements', signedIn, empty);
  app.get('/v1/featured_tags', signedIn, empty);
  app.get('/v1/featured_tags/suggestions', signedIn, empty);

  // The v2 grouped notifications: absent (apps fall back to v1).
  app.get('/v2/notifications', signedIn, async (_request, reply) => recordNotFound(reply));
}
