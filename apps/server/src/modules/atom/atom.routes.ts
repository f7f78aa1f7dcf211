import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UsernameParams } from '@share-arts/contract';
import { Type } from 'typebox';
import { errorResponses } from '../../lib/route-schema.js';
// The one rule for the site's public origin: PUBLIC_ORIGIN, else a plain Host header, else none.
import { originOf } from '../../plugins/static-files.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FEED_ENTRIES, type AtomFeed, type AtomService } from './atom.service.js';

/** How long readers and caches may keep a feed before asking again (then a 304 when unchanged). */
export const MAX_AGE_SECONDS = 300;

/** The Atom feed of an artist's works: GET /api/users/{username}/feed.atom. */
export const atomRoutes: FastifyPluginAsyncTypebox<{ atom: AtomService; publicOrigin: string | undefined }> = async (
  app,
  { atom, publicOrigin },
) => {
  app.get(
    '/users/:username/feed.atom',
    {
      schema: {
        tags: ['users'],
        summary: "An artist's Atom feed",
        description:
          `The artist's ${FEED_ENTRIES} newest works as an Atom 1.0 feed (application/atom+xml), for feed readers: ` +
          'each entry has the first words as its title, a link to /posts/{id}, published and updated times, and ' +
          'the text and the large pictures (with their alt text) as HTML content. Absolute URLs start with the ' +
          "server's PUBLIC_ORIGIN, or the request's Host when that is unset. ETag and Last-Modified are set; a " +
          'matching If-None-Match answers 304. If-Modified-Since alone is answered in full: the newest entry ' +
          'left after a deletion is older than the date the reader sent, so the date cannot tell. Unknown user: 404.',
        params: UsernameParams,
        response: {
          200: {
            description: 'The Atom feed',
            content: { 'application/atom+xml': { schema: Type.String() } },
          },
          304: { description: 'Not modified since the ETag or date the reader sent', type: 'null' },
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) =>
      replyWithFeed(request, reply, await atom.feed(request.params.username, originOf(request, publicOrigin))),
  );
};

/** Answers a feed with its validators: 304 when the reader's If-None-Match names it, else the XML. */
export function replyWithFeed(request: FastifyRequest, reply: FastifyReply, feed: AtomFeed): FastifyReply {
  reply
    .header('etag', feed.etag)
    .header('last-modified', feed.updated.toUTCString())
    .header('cache-control', `public, max-age=${MAX_AGE_SECONDS}`)
    .header('vary', 'Host');
  // The ETag is a hash of the feed, so a deleted work changes it; Last-Modified (the newest entry's
  // time) goes back in time then, so If-Modified-Since alone never answers 304.
  const ifNoneMatch = request.headers['if-none-match'];
  const unchanged =
    ifNoneMatch !== undefined &&
    ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === feed.etag || tag.trim() === '*');
  if (unchanged) return reply.code(304).send(null);
  return reply.type('application/atom+xml; charset=utf-8').send(feed.xml);
}
