import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { isActor, type Note, Object as APObject, type Actor } from '@fedify/vocab';
import { LOOKUP, LOOKUP_ERRORS, LookupQuery, LookupResponse, type LookupResponse as Found } from '@share-arts/contract';
import { upsertShadowAccount, type RemotePersonFields } from '../../actions/remote-people.js';
import { HttpError, refusal } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import type { RateLimit, RateLimiter } from '../../lib/rate-limiter.js';
import { errorResponses } from '../../lib/route-schema.js';
import { parseNoteKey } from './federation.objects.js';
import { DOCUMENT_TIMEOUT_MS, MAX_DOCUMENT_BYTES, RemoteUnreachable, safeFetch } from './federation.remote-fetch.js';
import { asWorkNote, fetchNote, noteWork, storeWork, type RemoteWorksDeps } from './federation.remote-works.js';
import { warningText } from './federation.reply-text.js';
import { isMediaRejectedServer, isSuspendedServer } from './federation.safety.js';
import { selectActorByUsername, selectPostByNote, selectShadowByHandle, selectShadowByIri } from './federation.sql.js';

/**
 * Following out (issue 39): finding someone on another server, from their handle (`@bob@host`, `bob@host`: WebFinger)
 * or the address of their profile or of one of their works (fetched as ActivityPub JSON through the limited, signed
 * loader), and keeping them as a shadow account (actions/remote-people.ts) whose newest works are then read
 * (BACKFILL_JOB). A person fetched more than a day ago is fetched again when looked up (a new name, bio or handle).
 */

/** A person is fetched again when looked up this long after. */
export const REFRESH_AFTER_MS = 24 * 3600 * 1000;
/** Each lookup may reach another server: at most this many a minute per person. */
export const LOOKUPS_PER_USER: RateLimit = { max: 30, windowMs: 60_000 };

/** What was typed: a handle (its user part and host, punycode, lower case) or an address. */
export type LookupInput = { kind: 'handle'; user: string; host: string } | { kind: 'url'; url: URL };

/** Reads `@bob@host`, `bob@host`, `acct:bob@host`, or an http(s) address; undefined for anything else. */
export function readLookup(input: string, allowHttp: boolean): LookupInput | undefined {
  const text = input.trim();
  if (/^https?:\/\//i.test(text)) {
    const url = URL.parse(text);
    if (!url || url.username || url.password || (url.protocol === 'http:' && !allowHttp)) return undefined;
    url.hash = '';
    return { kind: 'url', url };
  }
  const match = /^(?:acct:)?@?([\p{L}\p{N}._-]{1,64})@([^\s/?#@\\]+)$/iu.exec(text);
  if (!match) return undefined;
  const host = URL.parse(`https://${match[2]!}`)?.host;
  if (!host || (!host.includes('.') && !host.startsWith('localhost') && !allowHttp)) return undefined;
  return { kind: 'handle', user: match[1]!, host };
}

export interface RemotePeopleDeps extends RemoteWorksDeps {
  queueBackfill(actorIri: string): Promise<void>;
  /** A post as the viewer sees it (the posts module's getPost): throws its 404 otherwise. */
  seesPost(postId: string, viewerId: string): Promise<boolean>;
}

/** What is kept of a person: from their actor, with their handle's host the actor id's (what Mastodon checks). */
function personFields(actor: Actor, localHost: string): RemotePersonFields | null {
  if (!actor.id || !actor.inboxId) return null;
  const shown = (text: string, max: number) => warningText(text.replace(/</g, '&lt;'), localHost, max);
  const username = shown(String(actor.preferredUsername ?? ''), 64).replace(/[@\s:/#?]/g, '');
  if (!username) return null;
  const http = (url: URL | null | undefined) =>
    url && (url.protocol === 'https:' || url.protocol === 'http:') && url.href.length <= 2_000 ? url.href : null;
  const profile = actor.url instanceof URL ? actor.url : ((actor.url as { href?: URL } | null)?.href ?? null);
  return {
    iri: actor.id.href,
    handle: `${username}@${actor.id.host.toLowerCase()}`,
    username,
    inbox: actor.inboxId.href,
    sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
    name: shown(String(actor.name ?? ''), 200),
    iconUrl: null,
    profileUrl: http(profile),
    outbox: actor.outboxId && actor.outboxId.host === actor.id.host ? actor.outboxId.href : null,
    bio: warningText(String(actor.summary ?? ''), localHost, 300),
  };
}

/**
 * The person `actor` kept (their row and shadow account, refreshed), their newest works read when they are new here.
 * Answers their username here.
 */
export async function keepPerson(deps: RemotePeopleDeps, actor: Actor): Promise<string> {
  const fields = personFields(actor, deps.localHost());
  if (!fields) throw refusal(404, LOOKUP_ERRORS.nobody, { query: actor.id?.href ?? '?' });
  const kept = await upsertShadowAccount(deps.db, fields);
  if (kept.created) await deps.queueBackfill(fields.iri);
  return kept.username;
}

/** A document fetched and read as an ActivityPub object, when it is one and comes from where its id says. */
async function fetchObject(deps: RemotePeopleDeps, url: URL): Promise<unknown> {
  let fetched: { documentUrl: string; document: unknown };
  try {
    fetched = await deps.loader(url.href);
  } catch (error) {
    if (error instanceof RemoteUnreachable) throw error;
    return null;
  }
  try {
    const object = await APObject.fromJsonLd(fetched.document, {
      documentLoader: deps.loader,
      contextLoader: deps.contextLoader(),
    });
    return object.id?.origin === new URL(fetched.documentUrl).origin ? object : null;
  } catch {
    return null;
  }
}

/** The actor `iri` fetched afresh (past every cache), or null when it is not an actor (any more). */
export async function freshActor(deps: RemotePeopleDeps, iri: string): Promise<Actor | null> {
  const actor = await fetchObject(deps, new URL(iri));
  return isActor(actor) && actor.id?.href === iri ? actor : null;
}

/** The actor `iri` fetched afresh and kept; null when it is not an actor (any more). */
async function refreshPerson(deps: RemotePeopleDeps, iri: string): Promise<string | null> {
  const actor = await freshActor(deps, iri);
  return actor ? keepPerson(deps, actor) : null;
}

/** WebFinger of `acct:user@host` (limited fetch): the actor id it names (its `self` link of ActivityPub's type). */
async function webFinger(deps: RemotePeopleDeps, user: string, host: string): Promise<URL | null> {
  // Servers are https; tests (which alone allow private addresses) may run theirs on http, tried second.
  const schemes = deps.rules.allowPrivateAddress ? ['https', 'http'] : ['https'];
  let document: unknown;
  for (const [index, scheme] of schemes.entries()) {
    const url = new URL(`${scheme}://${host}/.well-known/webfinger`);
    url.searchParams.set('resource', `acct:${user}@${host}`);
    try {
      // WebFinger is open (unsigned) and answers JRD, not ActivityPub JSON.
      const { body } = await safeFetch(url, {
        ...deps.rules,
        accept: 'application/jrd+json, application/json',
        maxBytes: MAX_DOCUMENT_BYTES,
        timeoutMs: DOCUMENT_TIMEOUT_MS,
      });
      document = JSON.parse(body.toString('utf8'));
      break;
    } catch (error) {
      if (!(error instanceof RemoteUnreachable)) return null;
      if (index === schemes.length - 1) throw error;
    }
  }
  const links = (document as { links?: unknown } | null)?.links;
  if (!Array.isArray(links)) return null;
  for (const link of links as { rel?: unknown; type?: unknown; href?: unknown }[]) {
    const type = typeof link.type === 'string' ? link.type : '';
    if (link.rel !== 'self' || typeof link.href !== 'string') continue;
    if (!/^application\/(activity\+json|ld\+json)/.test(type)) continue;
    const href = URL.parse(link.href);
    if (href && (href.protocol === 'https:' || href.protocol === 'http:')) return href;
  }
  return null;
}

/** Our own handles and addresses: the account or work here, without fetching anything. */
async function lookupLocal(
  deps: RemotePeopleDeps,
  input: LookupInput,
  viewerId: string,
  nobody: () => HttpError,
): Promise<Found> {
  const person = async (username: string): Promise<Found> => {
    const row = username.includes('@')
      ? await selectShadowByHandle(deps.db, username)
      : await selectActorByUsername(deps.db, username);
    if (!row) throw nobody();
    return { kind: 'person', username: row.username };
  };
  if (input.kind === 'handle') return person(input.user);
  const path = input.url.pathname;
  const decode = (segment: string) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  };
  const postId =
    /^\/posts\/([^/]+)\/?$/.exec(path)?.[1] ??
    parseNoteKey(decode(/^\/ap\/posts\/([^/]+)$/.exec(path)?.[1] ?? ''))?.postId;
  if (postId) {
    const id = decode(postId).toLowerCase();
    if (!isUuid(id) || !(await deps.seesPost(id, viewerId))) throw nobody();
    return { kind: 'work', postId: id };
  }
  const username = /^\/@?([^/]+)\/?$/.exec(path)?.[1];
  if (username) return person(decode(username));
  throw nobody();
}

/**
 * Finds what `q` names: a person (kept as a shadow account) or a work (stored). 400 when it is not a handle or an
 * address; 403 for a suspended server; 404 when nobody is there or the post is not a public work with pictures; 502
 * when their server does not answer.
 */
export async function lookup(deps: RemotePeopleDeps, q: string, viewerId: string, localHost: string): Promise<Found> {
  const input = readLookup(q, deps.rules.allowPrivateAddress);
  if (!input) throw new HttpError(400, LOOKUP_ERRORS.notAQuery);
  const host = input.kind === 'handle' ? input.host : input.url.host.toLowerCase();
  const shownQuery = input.kind === 'handle' ? `@${input.user}@${input.host}` : input.url.href;
  const nobody = () => refusal(404, LOOKUP_ERRORS.nobody, { query: shownQuery });
  if (host === localHost.toLowerCase()) return lookupLocal(deps, input, viewerId, nobody);
  if (await isSuspendedServer(deps.db, [input.kind === 'handle' ? input.host.replace(/:\d+$/, '') : input.url])) {
    throw refusal(403, LOOKUP_ERRORS.suspended, { host });
  }
  try {
    if (input.kind === 'handle') {
      const known = await selectShadowByHandle(deps.db, `${input.user}@${input.host}`);
      if (known && Date.now() - new Date(known.fetched_at).getTime() < REFRESH_AFTER_MS) {
        return { kind: 'person', username: known.username };
      }
      const iri = known ? new URL(known.iri) : await webFinger(deps, input.user, input.host);
      if (!iri) throw nobody();
      const username = await refreshPerson(deps, iri.href);
      if (!username) throw nobody();
      return { kind: 'person', username };
    }
    // A work stored already (by its Note's id or page), a person known by their actor id: no fetch unless stale.
    const stored = await selectPostByNote(deps.db, input.url.href);
    if (stored) return { kind: 'work', postId: stored.id };
    const known = await selectShadowByIri(deps.db, input.url.href);
    if (known && Date.now() - new Date(known.fetched_at).getTime() < REFRESH_AFTER_MS) {
      return { kind: 'person', username: known.username };
    }
    const object = await fetchObject(deps, input.url);
    if (isActor(object)) return { kind: 'person', username: await keepPerson(deps, object) };
    const note = await asWorkNote(object, { documentLoader: deps.loader, contextLoader: deps.contextLoader() });
    if (note) return await lookupWork(deps, note, nobody);
    throw nobody();
  } catch (error) {
    if (error instanceof RemoteUnreachable) throw refusal(502, LOOKUP_ERRORS.noServer, { host });
    throw error;
  }
}

/** A work looked up by its address: its author kept, then the work stored (public, with pictures), else 404. */
async function lookupWork(deps: RemotePeopleDeps, found: Note, nobody: () => HttpError): Promise<Found> {
  const stored = await selectPostByNote(deps.db, found.id!.href);
  if (stored) return { kind: 'work', postId: stored.id };
  // Read again by its id from its own server (what was fetched may have been its page, redirected).
  const note = await fetchNote(deps, found.id!.href);
  const authorIri = note?.attributionId;
  if (!note || !authorIri) throw nobody();
  if (await isMediaRejectedServer(deps.db, note.id!)) {
    throw refusal(403, LOOKUP_ERRORS.mediaRejected, { host: note.id!.host });
  }
  const work = await noteWork(note, deps);
  if ('skip' in work) throw new HttpError(404, LOOKUP_ERRORS.notAWork);
  const actor = await fetchObject(deps, authorIri);
  if (!isActor(actor) || actor.id?.href !== authorIri.href) throw nobody();
  await keepPerson(deps, actor);
  const shadow = await selectShadowByIri(deps.db, authorIri.href);
  if (!shadow) throw nobody();
  const result = await storeWork(deps, shadow, work);
  if ('skip' in result) throw new HttpError(404, LOOKUP_ERRORS.notAWork);
  return { kind: 'work', postId: result.postId };
}

/** GET /api/federation/lookup?q=: a person or a work on another server (or here), for a signed-in person. */
export const lookupRoutes: FastifyPluginAsyncTypebox<{
  deps: RemotePeopleDeps;
  guards: { requireUser(request: FastifyRequest): Promise<void> };
  limiter: RateLimiter;
  localHost: (request: FastifyRequest) => string;
}> = async (app, { deps, guards, limiter, localHost }) => {
  app.get(
    '/federation/lookup',
    {
      preHandler: [guards.requireUser],
      schema: {
        tags: ['federation'],
        summary: 'Find a person or a work on another server',
        description:
          'Reads a handle (`@bob@mastodon.example`, `bob@mastodon.example`) or the address of a profile or a post, ' +
          'finds it (WebFinger, then the ActivityPub document, signed by this server), and keeps the person as an ' +
          'account here (`/{username}`, username `bob@host`) whose newest works are then read, or the work as a post ' +
          "(`/posts/{postId}`: a public post with pictures). This server's own handles and addresses answer the " +
          'account or post here. 400: not a handle or address; 403: a suspended server; 404: nobody there, or a ' +
          `post that is not a public work with pictures; 502: their server did not answer. At most ${LOOKUPS_PER_USER.max} a minute.`,
        querystring: LookupQuery,
        response: { 200: LookupResponse, ...errorResponses(400, 401, 403, 404, 429, 502) },
      },
    },
    async (request) => {
      await limiter.hit(`federation-lookup:${request.userId}`, LOOKUPS_PER_USER);
      if (request.query.q.length > LOOKUP.queryMaxLength) throw new HttpError(400, LOOKUP_ERRORS.notAQuery);
      return lookup(deps, request.query.q, request.userId!, localHost(request));
    },
  );
};
