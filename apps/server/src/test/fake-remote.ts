import http from 'node:http';
import net from 'node:net';
import {
  createFederation,
  type generateCryptoKeyPair,
  MemoryKvStore,
  signRequest,
  verifyRequest,
} from '@fedify/fedify';
import { Activity, Endpoints, Image, Person } from '@fedify/vocab';
import type { Config } from '../config.js';
import { createTestApp, type TestContext } from './helpers.js';

/**
 * The tests' fake remote server (issue 39), shared by the federation tests that run the app on a loopback port: a
 * small server made with Fedify itself, on another port, whose actors have their own keys and inboxes, follow our
 * artists with signed requests, and verify the signature of everything we deliver (an activity reaches `received`
 * only once Fedify there checked it against our actor's key). Not a test itself: the test files import it.
 */

export const AP = 'application/activity+json';
export const WAIT_MS = 40_000;

/** A port free on loopback now (the app's origin must be known before it is built). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Polls `check` until it answers something truthy, at most `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, what: string, ms = WAIT_MS) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Fedify's key pair type (Web Crypto's, whichever of Node's or the DOM's types the build uses). */
export type KeyPair = Awaited<ReturnType<typeof generateCryptoKeyPair>>;

/** An RSA key pair of 2,048 bits (Fedify's helper makes 4,096, slower to make and to sign with). */
export async function rsaPair(): Promise<KeyPair> {
  return (await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as unknown as KeyPair;
}

export interface Received {
  /** The inbox path it was delivered to. */
  path: string;
  json: Record<string, unknown> & { type: string; id: string; object: Record<string, unknown> | string };
}

/**
 * The fake remote server: actors `bob` (with a shared inbox, as Mastodon's), `carol` (a personal inbox only),
 * `dave` (the same, the account someone moves to: its `alsoKnownAs` is `aliases.dave`) and `odd` (a careless server's:
 * no username, a name with control characters, a `javascript:` page, an icon that is not there), each with its own
 * RSA key; every activity its inboxes verify is kept in `received`. An actor in
 * `gone` has an inbox that answers 410, one in `failing` an inbox that answers 503.
 */
export async function startRemote() {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const keys = {
    bob: await rsaPair(),
    carol: await rsaPair(),
    odd: await rsaPair(),
    dave: await rsaPair(),
  } as Record<string, KeyPair>;
  /** Each actor's `alsoKnownAs` (the accounts it says it was: a Move's target names the old one), none unless set. */
  const aliases: Record<string, string[]> = {};
  const received: Received[] = [];
  /** Every body POSTed to an inbox, as sent (`received` holds them as Fedify reads them). */
  const bodies: Record<string, unknown>[] = [];
  /** The path of every GET made to it (an actor's document, its key), in order: what was fetched from it. */
  const fetched: string[] = [];
  const gone = new Set<string>();
  const failing = new Set<string>();
  /**
   * Following out: documents it serves by path as ActivityPub JSON (a Note, an outbox and its pages: `serve` writes
   * them), and files it serves by path as they are (pictures); a GET of either is kept in `fetched` too.
   */
  const documents = new Map<string, unknown>();
  const files = new Map<string, { type: string; body: Buffer }>();
  /** Each actor's bio (`summary`), and a name that replaces its own (a person renamed), when set. */
  const profiles: Record<string, { name?: string; summary?: string }> = {};
  /** Whether its WebFinger names a page for following from elsewhere (Mastodon's `authorize_interaction`). */
  const webfinger = { subscribe: true };
  /**
   * Mastodon's secure mode (AUTHORIZED_FETCH) when `on`: a GET of an actor or its key answers 401 unless it carries an
   * HTTP signature that verifies (against the signer's key, fetched from its server); `signers` keeps each verified
   * signer's key id. Off by default.
   */
  const secure = { on: false, signers: [] as string[] };
  const federation = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true });
  federation
    .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
      if (!keys[identifier]) return null;
      const [pair] = await ctx.getActorKeyPairs(identifier);
      if (identifier === 'odd') {
        return new Person({
          id: ctx.getActorUri(identifier),
          name: '\u202eOdd\n  One\u0000',
          url: new URL('javascript:alert(1)'),
          icon: new Image({ url: new URL('/missing.png', origin) }),
          inbox: ctx.getInboxUri(identifier),
          publicKey: pair!.cryptographicKey,
        });
      }
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: profiles[identifier]?.name ?? { bob: 'Bob Remote', dave: 'Dave Remote' }[identifier] ?? 'Carol Remote',
        summary: profiles[identifier]?.summary ?? null,
        outbox: new URL(`/users/${identifier}/outbox`, origin),
        aliases: (aliases[identifier] ?? []).map((alias) => new URL(alias)),
        url: new URL(`/@${identifier}`, origin),
        inbox: ctx.getInboxUri(identifier),
        endpoints: identifier === 'bob' ? new Endpoints({ sharedInbox: ctx.getInboxUri() }) : null,
        publicKey: pair!.cryptographicKey,
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => (keys[identifier] ? [keys[identifier]] : []));
  federation.setInboxListeners('/users/{identifier}/inbox', '/inbox').on(Activity, async (ctx, activity) => {
    const json = (await activity.toJsonLd({ contextLoader: ctx.contextLoader, format: 'compact' })) as Received['json'];
    received.push({ path: ctx.recipient === null ? '/inbox' : `/users/${ctx.recipient}/inbox`, json });
  });

  const server = http.createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const path = (req.url ?? '/').split('?')[0]!;
      if (req.method === 'GET') fetched.push(path);
      if (req.method === 'POST') {
        try {
          bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
        } catch {
          // Not JSON: the inbox below refuses it.
        }
      }
      // By its whole address first (an outbox page's `?page=`), then by its path.
      const document = req.method === 'GET' ? (documents.get(req.url ?? '') ?? documents.get(path)) : undefined;
      if (document !== undefined) {
        res.writeHead(200, { 'content-type': AP }).end(JSON.stringify(document));
        return;
      }
      const file = req.method === 'GET' ? files.get(path) : undefined;
      if (file) {
        res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.body.length) }).end(file.body);
        return;
      }
      // WebFinger of a URL (a profile or the server itself), as Mastodon answers it: with its subscribe template.
      const resource = new URL(req.url ?? '/', origin).searchParams.get('resource') ?? '';
      if (req.method === 'GET' && path === '/.well-known/webfinger' && resource.startsWith('http')) {
        const links = [{ rel: 'self', type: 'application/activity+json', href: `${origin}/users/bob` }];
        if (webfinger.subscribe) {
          links.push({
            rel: 'http://ostatus.org/schema/1.0/subscribe',
            template: `${origin}/authorize_interaction?uri={uri}`,
          } as never);
        }
        res
          .writeHead(200, { 'content-type': 'application/jrd+json' })
          .end(JSON.stringify({ subject: resource, links }));
        return;
      }
      const who = /^\/users\/([^/]+)\/inbox$/.exec(path)?.[1];
      if (req.method === 'POST' && who && gone.has(who)) {
        res.writeHead(410).end();
        return;
      }
      if (req.method === 'POST' && who && failing.has(who)) {
        res.writeHead(503).end();
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      const request = new Request(`${origin}${req.url}`, {
        method: req.method,
        headers,
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
      });
      if (secure.on && req.method === 'GET' && path.startsWith('/users/')) {
        const key = await verifyRequest(request.clone(), {
          documentLoader: ctx.documentLoader,
          contextLoader: ctx.contextLoader,
        });
        if (!key) {
          res.writeHead(401).end('Request not signed');
          return;
        }
        secure.signers.push(key.id!.href);
      }
      const response = await federation.fetch(request, { contextData: undefined });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const ctx = federation.createContext(new URL(origin), undefined);

  /** POSTs `activity` to `inbox`, signed by `as` (draft-cavage, with a Digest), then optionally changed. */
  async function deliver(inbox: string, activity: Activity, as: string, change?: (body: string) => string) {
    const body = JSON.stringify(await activity.toJsonLd({ format: 'compact', contextLoader: ctx.contextLoader }));
    const unsigned = new Request(inbox, { method: 'POST', headers: { 'content-type': AP, accept: AP }, body });
    const signed = await signRequest(unsigned, keys[as]!.privateKey, new URL(`${ctx.getActorUri(as).href}#main-key`));
    const sent = change
      ? new Request(signed.url, { method: 'POST', headers: signed.headers, body: change(body) })
      : signed;
    return fetch(sent);
  }

  /** Serves a Fedify object (a Note, a collection) at `path` as its compact JSON-LD. */
  async function serve(path: string, object: { toJsonLd(options: object): Promise<unknown> }) {
    documents.set(path, await object.toJsonLd({ format: 'compact', contextLoader: ctx.contextLoader }));
  }

  return {
    origin,
    documents,
    files,
    profiles,
    serve,
    received,
    bodies,
    fetched,
    gone,
    failing,
    webfinger,
    secure,
    aliases,
    actor: (name: string) => ctx.getActorUri(name).href,
    deliver,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Remote = Awaited<ReturnType<typeof startRemote>>;

/**
 * Our app listening on a loopback port of its own, federating (`publicOrigin` its address; loopback allowed by
 * `federationAllowPrivateAddress`, a setting only tests set), beside a fake remote server; `config` changes more of
 * its settings (the rate limits, say). `FED_LOG=1` shows the app's warnings.
 */
export async function startFederatedApp(config: Partial<Config> = {}): Promise<{
  ctx: TestContext;
  origin: string;
  remote: Remote;
  close(): Promise<void>;
}> {
  const remote = await startRemote();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const ctx = await createTestApp({
    config: {
      publicOrigin: origin,
      federationAllowPrivateAddress: true,
      logLevel: process.env.FED_LOG ? 'warn' : 'silent',
      ...config,
    },
  });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  return {
    ctx,
    origin,
    remote,
    close: async () => {
      await ctx.close();
      await remote.close();
    },
  };
}
