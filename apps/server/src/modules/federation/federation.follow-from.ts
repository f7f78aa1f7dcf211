import type { Federation } from '@fedify/fedify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ERRORS,
  FOLLOW_FROM,
  FOLLOW_FROM_ERRORS,
  FollowFromQuery,
  FollowFromResponse,
  UsernameParams,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { HttpError, refusal } from '../../lib/http-error.js';
import type { RateLimit, RateLimiter } from '../../lib/rate-limiter.js';
import { errorResponses } from '../../lib/route-schema.js';
// The one rule for the site's public origin: PUBLIC_ORIGIN, else a plain Host header, else none.
import { originOf } from '../../plugins/static-files.js';
import type { FederationRequestData } from './federation.dispatchers.js';
import { selectActorByUsername } from './federation.sql.js';

/** The link of a WebFinger answer that names a server's page for following someone from elsewhere. */
const SUBSCRIBE = 'http://ostatus.org/schema/1.0/subscribe';
/** Each lookup reaches another server: at most this many from one address. */
const LOOKUPS_PER_IP: RateLimit = { max: 20, windowMs: 60_000 };

/** What the visitor typed, read: their server's host (punycode, with a port when one was given) and their name there. */
export interface VisitorAccount {
  user: string | null;
  host: string;
  /** A URL was typed (`https://mastodon.social/@you`): looked up as that URL. */
  url: URL | null;
}

/**
 * Reads `@you@mastodon.social`, `you@mastodon.social`, `acct:you@…`, `mastodon.social`, or a profile or server
 * URL. Undefined for anything else (spaces, a path in a bare host, a host without a dot).
 */
export function readVisitorAccount(input: string, allowHttp = false): VisitorAccount | undefined {
  const text = input.trim().replace(/^acct:/i, '');
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return undefined;
    }
    if (url.username || url.password || (url.protocol === 'http:' && !allowHttp)) return undefined;
    const user = /^\/@([^/@]+)\/?$/.exec(url.pathname)?.[1] ?? null;
    return { user, host: url.host, url };
  }
  const bare = text.replace(/^@/, '');
  const at = bare.lastIndexOf('@');
  const user = at >= 0 ? bare.slice(0, at) : null;
  if (user !== null && !/^[\p{L}\p{N}._-]{1,64}$/u.test(user)) return undefined;
  const hostText = (at >= 0 ? bare.slice(at + 1) : bare).replace(/\/+$/, '');
  if (!/^[^\s/?#@\\]+$/u.test(hostText)) return undefined;
  let host: string;
  try {
    host = new URL(`https://${hostText}`).host;
  } catch {
    return undefined;
  }
  if (!host.includes('.') && !host.startsWith('localhost')) return undefined;
  return { user, host, url: null };
}

/**
 * GET /api/users/{username}/follow-from?account=…: where to send a visitor who follows the artist from their own
 * fediverse server. The visitor's server is asked, by WebFinger (through Fedify, which refuses private and
 * loopback addresses outside tests), for its subscribe template, and the artist's `username@host` is put in it:
 * Mastodon answers `https://server/authorize_interaction?uri={uri}`.
 */
export const followFromRoutes: FastifyPluginAsyncTypebox<{
  db: Db;
  federation: Federation<FederationRequestData>;
  limiter: RateLimiter;
  publicOrigin: string | undefined;
  allowPrivateAddress: boolean;
}> = async (app, { db, federation, limiter, publicOrigin, allowPrivateAddress }) => {
  app.get(
    '/users/:username/follow-from',
    {
      schema: {
        tags: ['users'],
        summary: 'Follow an artist from another fediverse server',
        description:
          "Reads the visitor's handle or server (`account`), asks that server (WebFinger) for its page for " +
          "following someone from another site, and answers that page's URL with the artist's `username@host` in " +
          'it, for the visitor to be sent there. 400: not a handle or server, or this server; 404: no such artist; ' +
          `422: the server did not answer in ${FOLLOW_FROM.lookupTimeoutMs / 1000} s, or names no such page ` +
          `(the message says to search for the artist there). At most ${LOOKUPS_PER_IP.max} a minute from one address.`,
        params: UsernameParams,
        querystring: FollowFromQuery,
        response: {
          200: FollowFromResponse,
          ...errorResponses(400, 404, 422, 429),
        },
      },
    },
    async (request) => {
      const origin = originOf(request, publicOrigin);
      if (!origin) throw new HttpError(400, 'The request names no host.');
      const artist = await selectActorByUsername(db, request.params.username);
      if (!artist) throw new HttpError(404, ERRORS.userNotFound);
      const ours = new URL(origin).host;
      const handle = `${artist.username}@${ours}`;
      const visitor = readVisitorAccount(request.query.account, allowPrivateAddress);
      if (!visitor) throw new HttpError(400, FOLLOW_FROM_ERRORS.notAnAccount);
      if (visitor.host === ours) throw new HttpError(400, FOLLOW_FROM_ERRORS.thisServer);
      const say = (message: string) => refusal(422, message, { host: visitor.host, handle: `@${handle}` });

      await limiter.hit(`follow-from:${request.ip}`, LOOKUPS_PER_IP);
      const resource =
        visitor.url ?? (visitor.user ? `acct:${visitor.user}@${visitor.host}` : `https://${visitor.host}/`);
      const ctx = federation.createContext(new URL(origin), {});
      const found = await ctx
        .lookupWebFinger(resource, { signal: AbortSignal.timeout(FOLLOW_FROM.lookupTimeoutMs), maxRedirection: 3 })
        .catch(() => null);
      if (!found) throw say(FOLLOW_FROM_ERRORS.noServer);
      const template = found.links?.find((link) => link.rel === SUBSCRIBE)?.template;
      const url = template?.includes('{uri}') ? URL.parse(template.replace('{uri}', encodeURIComponent(handle))) : null;
      if (!url || (url.protocol !== 'https:' && !(allowPrivateAddress && url.protocol === 'http:'))) {
        throw say(FOLLOW_FROM_ERRORS.noFollowPage);
      }
      return { url: url.href, handle };
    },
  );
};
