import type { Federation } from '@fedify/fedify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS, RESERVED_USERNAMES, USERNAME_PATTERN } from '@share-arts/contract';
import { isUuid } from '../../lib/ids.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
// The one rule for the site's public origin: PUBLIC_ORIGIN, else a plain Host header, else none.
import { originOf } from '../../plugins/static-files.js';
import { escapeHtml } from '../../lib/text-html.js';
import type { FederationRequestData } from './federation.dispatchers.js';
import { requestHosts } from './federation.safety.js';

/** The paths Fedify answers itself (WebFinger, NodeInfo, the actors, their collections and works). */
const FEDIFY_PATH = /^\/(?:\.well-known\/(?:webfinger|nodeinfo)|nodeinfo\/2\.1|ap\/)/;
/** The inboxes (each account's and the shared one): activities are POSTed to them. */
const INBOX_PATH = /^\/ap\/(?:users\/[^/]+\/)?inbox$/;
/**
 * The largest activity an inbox takes (413 above it). Mastodon's own limit on what it fetches is 1 MiB
 * (JsonLdHelper); an activity with its embedded object is far smaller.
 */
export const INBOX_BODY_LIMIT = 1024 * 1024;
/**
 * The POSTs one remote server may make to the inboxes in a minute (FEDERATION_INBOX_RATE overrides it), past which
 * they answer 429 with Retry-After. A big Mastodon server sends one POST per activity to our shared inbox as its
 * people act, a few a second at most for a popular work's likes and boosts; its bursts are clean-ups (an account's
 * deletion sends a Delete per post, thousands in minutes), which this spreads out: Mastodon's DeliveryWorker tries a
 * 429 again later (`response_error_unsalvageable?` excludes it), so nothing is lost.
 */
export const INBOX_RATE_PER_MINUTE = 1_800;
const HOST_META = '/.well-known/host-meta';
/** A request for ActivityPub's JSON (Mastodon and Pixelfed send one of these two). */
const ACTIVITY_JSON = /application\/(?:activity\+json|ld\+json)/i;
const USERNAME = new RegExp(USERNAME_PATTERN);
const POST_PAGE = /^\/posts\/([^/]+)$/;

/** A marker answer: Fedify has nothing here (or not in a type the request accepts), so the app answers. */
const FALL_THROUGH = new Response(null, { status: 404 });

/**
 * The Fastify side of Fedify (issue 39; `@fedify/fastify` is not on the registry): GET and HEAD requests to
 * WebFinger, NodeInfo and `/ap/…`, and a profile (`/<username>`) or work (`/posts/{id}`) page asked for as
 * ActivityPub JSON, are rebuilt as web Requests on the site's origin and answered by `federation.fetch`. What
 * Fedify does not find, or finds only as JSON when the request wants a page, falls through to the app, so
 * the pages and the web app answer as before. Host-meta is answered here (Fedify does not serve it).
 */
export function registerFederationAdapter(
  app: FastifyInstance,
  {
    federation,
    publicOrigin,
    actorIdOf,
    refusesServer,
    inboxRate,
  }: {
    federation: Federation<FederationRequestData>;
    publicOrigin: string | undefined;
    /** The actor id (the account's uuid) of a username in any case; undefined when none or suspended. */
    actorIdOf: (username: string) => Promise<string | undefined>;
    /**
     * Whether an inbox POST is refused (403) before Fedify sees it, so before the sender's key is fetched: a
     * suspended server's (its actor's or its signature key's host; federation.safety.ts).
     */
    refusesServer?: (hosts: string[]) => Promise<boolean>;
    /**
     * The rate per server (the hosts refusesServer is asked about): its POSTs in a minute, counted once Fedify took
     * them (a POST it refuses counts against the sending address instead, so a forged actor cannot spend another
     * server's allowance).
     */
    inboxRate?: { limiter: RateLimiter; perMinute: number };
  },
): void {
  /**
   * Seconds to wait before a POST from these hosts (or this address) is taken again, when one of them used its
   * minute's allowance; null when none did.
   */
  async function rateRefusal(hosts: string[], address: string): Promise<number | null> {
    if (!inboxRate?.limiter.enabled) return null;
    for (const key of [...hosts.map((host) => `inbox:${host}`), `inbox-address:${address}`]) {
      const { count, seconds } = await inboxRate.limiter.used(key);
      if (count >= inboxRate.perMinute) return Math.max(1, seconds);
    }
    return null;
  }

  /** Counts a POST against its hosts when Fedify took it (2xx), else against its address. */
  async function countPost(hosts: string[], address: string, status: number) {
    if (!inboxRate?.limiter.enabled) return;
    const limit = { max: inboxRate.perMinute, windowMs: 60_000 };
    const keys = status < 300 && hosts.length > 0 ? hosts.map((host) => `inbox:${host}`) : [`inbox-address:${address}`];
    for (const key of keys) await inboxRate.limiter.add(key, limit);
  }

  /** The Fedify path a page's address stands for when asked as ActivityPub JSON; undefined for others. */
  async function objectPathOf(pathname: string): Promise<string | undefined> {
    const post = POST_PAGE.exec(pathname);
    if (post) return isUuid(post[1]!) ? `/ap/posts/${post[1]!.toLowerCase()}` : undefined;
    const segments = pathname.split('/').filter(Boolean);
    if (segments.length !== 1) return undefined;
    let username: string;
    try {
      username = decodeURIComponent(segments[0]!);
    } catch {
      return undefined;
    }
    if ((RESERVED_USERNAMES as readonly string[]).includes(username.toLowerCase())) return undefined;
    if (!USERNAME.test(username) || username.length < LIMITS.usernameMin || username.length > LIMITS.usernameMax) {
      return undefined;
    }
    const id = await actorIdOf(username);
    return id ? `/ap/users/${id}` : undefined;
  }

  /**
   * A POST to an inbox: its body read here (at most INBOX_BODY_LIMIT bytes, else 413, before Fedify sees it),
   * then, unless its server used its minute's allowance (429 with Retry-After) or is suspended (403), both before
   * any key is fetched, handed to Fedify, which verifies its HTTP signature (401 when missing, wrong, or not the
   * actor's key; nothing is done), queues it and answers 202; an unknown or suspended account's inbox answers 404.
   */
  async function postToInbox(request: FastifyRequest, reply: FastifyReply, pathname: string, query?: string) {
    const origin = originOf(request, publicOrigin);
    if (!origin) return reply.code(400).send({ errors: ['The request names no host.'] });
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > INBOX_BODY_LIMIT) {
      reply.header('connection', 'close');
      return reply.code(413).send({ errors: ['The activity is too large.'] });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request.raw as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > INBOX_BODY_LIMIT) {
        reply.header('connection', 'close');
        return reply.code(413).send({ errors: ['The activity is too large.'] });
      }
      chunks.push(chunk);
    }
    const headers = headersOf(request);
    const body = Buffer.concat(chunks);
    const hosts = requestHosts(body, headers);
    const wait = await rateRefusal(hosts, request.ip);
    if (wait !== null) {
      reply.header('retry-after', String(wait));
      return reply.code(429).send({ errors: [`Too many activities from your server: try again in ${wait} s.`] });
    }
    if (refusesServer && (await refusesServer(hosts))) {
      await countPost(hosts, request.ip, 403);
      return reply.code(403).send({ errors: ['This server does not take activities from yours.'] });
    }
    const response = await federation.fetch(
      new Request(`${origin}${pathname}${query === undefined ? '' : `?${query}`}`, {
        method: 'POST',
        headers,
        body,
      }),
      { contextData: {} },
    );
    await countPost(hosts, request.ip, response.status);
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') reply.header(name, value);
    });
    return reply.send(Buffer.from(await response.arrayBuffer()));
  }

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const [pathname = '/', query] = request.url.split('?', 2) as [string, string | undefined];
    if (request.method === 'POST' && INBOX_PATH.test(pathname)) return postToInbox(request, reply, pathname, query);
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    // Every other request (pages, the API, pictures, assets) leaves here, before any other work.
    const page = !FEDIFY_PATH.test(pathname) && pathname !== HOST_META;
    if (page && !ACTIVITY_JSON.test(request.headers.accept ?? '')) return;
    const origin = originOf(request, publicOrigin);
    if (!origin) return;
    if (pathname === HOST_META) return sendHostMeta(reply, origin);

    let target = pathname;
    if (page) {
      const mapped = await objectPathOf(pathname);
      if (!mapped) return;
      target = mapped;
    }

    const headers = headersOf(request);
    const data: FederationRequestData = {};
    const response = await federation.fetch(
      new Request(`${origin}${target}${query === undefined ? '' : `?${query}`}`, { method: 'GET', headers }),
      { contextData: data, onNotFound: () => FALL_THROUGH, onNotAcceptable: () => FALL_THROUGH },
    );
    if (response === FALL_THROUGH) return;

    let body = Buffer.from(await response.arrayBuffer());
    if (pathname === '/.well-known/webfinger' && response.ok && data.handle) {
      body = Buffer.from(JSON.stringify(canonicalWebFinger(JSON.parse(body.toString('utf8')), data.handle, origin)));
    } else if (response.ok && /activity\+json|ld\+json/.test(response.headers.get('content-type') ?? '')) {
      body = Buffer.from(JSON.stringify(asParsersRead(JSON.parse(body.toString('utf8')))));
    }
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') reply.header(name, value);
    });
    // The same address is a page for a browser: caches keep the two apart.
    if (page) reply.header('vary', 'Accept');
    return reply.send(body);
  });
}

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
/** The properties Mastodon and Pixelfed read only as arrays (JSON-LD compaction writes a lone value bare). */
const ALWAYS_ARRAYS = new Set(['to', 'cc', 'tag', 'attachment']);

/**
 * Fedify's JSON as the fediverse's parsers read it (the same JSON-LD, written otherwise): `to`, `cc`, `tag` and
 * `attachment` always arrays (Pixelfed's Helpers::normalizeAudience and verifyAttachments skip anything else,
 * Mastodon's process_account_service.rb reads profile fields only from an `attachment` array), and the public
 * address as its full IRI, not the compact `as:Public` (Pixelfed compares the IRI).
 */
export function asParsersRead(json: unknown): unknown {
  if (Array.isArray(json)) return json.map(asParsersRead);
  if (json === null || typeof json !== 'object') return json;
  const shaped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json)) {
    if (key === '@context') {
      shaped[key] = value;
      continue;
    }
    let next = asParsersRead(value);
    if (ALWAYS_ARRAYS.has(key) && !Array.isArray(next)) next = [next];
    if (key === 'to' || key === 'cc') next = (next as unknown[]).map((to) => (to === 'as:Public' ? PUBLIC : to));
    shaped[key] = next;
  }
  return shaped;
}

/**
 * Mastodon's WebFinger answer for `acct:MIRA@host` names the account as it writes itself (`acct:mira@host`),
 * with its profile page and actor as aliases; Fedify echoes the resource as asked and lists the actor only.
 */
function canonicalWebFinger(
  jrd: { subject?: string; aliases?: string[]; links?: { rel: string; href?: string }[] },
  handle: string,
  origin: string,
) {
  const profile = new URL(`/${encodeURIComponent(handle)}`, origin).href;
  const aliases = [profile, ...(jrd.aliases ?? []).filter((alias) => alias !== profile)];
  return { ...jrd, subject: `acct:${handle}@${new URL(origin).host}`, aliases };
}

/** host-meta (RFC 6415): where WebFinger is, for the servers that look there first. */
function sendHostMeta(reply: FastifyReply, origin: string) {
  const template = escapeHtml(`${origin}/.well-known/webfinger?resource={uri}`);
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">\n' +
    `  <Link rel="lrdd" template="${template}"/>\n` +
    '</XRD>\n';
  return reply
    .header('cache-control', 'public, max-age=3600')
    .header('access-control-allow-origin', '*')
    .type('application/xrd+xml; charset=utf-8')
    .send(xml);
}

/** The request's headers as a web Headers (a repeated header keeps each value). */
function headersOf(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const each of value) headers.append(name, each);
  }
  return headers;
}
