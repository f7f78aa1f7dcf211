/**
 * The other processes of `bench/federation.ts` (issue 39), forked by it so that the app's process does only the
 * app's work: `remote` is the fediverse (SERVERS fake servers, each its own origin on a loopback port, whose inboxes
 * count what arrives and whose actors like our works with signed requests), `load` is autocannon on GET /api/posts.
 * Each answers the parent's messages `{ id, op, args }` with `{ id, result }` or `{ id, error }`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { createFederation, MemoryKvStore, signRequest, verifyRequest, type KeyCache } from '@fedify/fedify';

const AP = 'application/activity+json';
type KeyPair = CryptoKeyPair;

/** An RSA key pair of 2,048 bits, as the tests' fake remote makes (apps/server/src/test/fake-remote.ts). */
const rsaPair = async (): Promise<KeyPair> =>
  (await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as KeyPair;

type Ops = Record<string, (args: never) => Promise<unknown>>;

/** Answers the parent's messages with `ops`. */
function serve(ops: Ops) {
  process.on('message', (message: { id: number; op: string; args: never }) => {
    const op = ops[message.op];
    if (!op) {
      process.send!({ id: message.id, error: `no op ${message.op}` });
      return;
    }
    op(message.args).then(
      (result) => process.send!({ id: message.id, result }),
      (error: unknown) => process.send!({ id: message.id, error: String((error as Error)?.stack ?? error) }),
    );
  });
  process.send!({ ready: true });
}

/** A clock both processes share (milliseconds since the epoch, to the microsecond). */
const now = () => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------------------------------------------------------
// remote: the fake servers
// ---------------------------------------------------------------------------------------------------------------

async function remote() {
  const servers: http.Server[] = [];
  const origins: string[] = [];
  /** Every POST to an inbox since `reset`: how many, how many signed, the first and the last one's time. */
  const inbox = {
    posts: 0,
    signed: 0,
    first: 0,
    last: 0,
    sampled: 0,
    verified: 0,
    failed: 0,
    failures: [] as string[],
  };
  /** GETs of the liking actors' documents (their keys): path → times fetched. */
  const fetched = new Map<string, number>();
  let sampleEvery = 100;
  /** The liking actors' key pairs (shared by several actors: each actor still has its own key id to fetch). */
  let pairs: KeyPair[] = [];
  const pems: string[] = [];
  let likers = 0;
  /** The pre-signed Likes: URL, headers and body of each. */
  let signed: { url: string; headers: [string, string][]; body: string }[] = [];

  // Fedify's loaders, for verifying a sample of what arrives against our server's key (loopback allowed).
  const loaders = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true }).createContext(
    new URL('http://127.0.0.1/'),
    undefined,
  );
  const keys = new Map<string, unknown>();
  const keyCache: KeyCache = {
    get: async (keyId) => keys.get(keyId.href) as never,
    set: async (keyId, key) => void keys.set(keyId.href, key),
  };

  const likerOf = (n: number) => `${origins[n % origins.length]}/users/l${n}`;
  const actorDocument = (n: number) => {
    const id = likerOf(n);
    const origin = origins[n % origins.length]!;
    return {
      '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
      id,
      type: 'Person',
      preferredUsername: `l${n}`,
      name: `Liker ${n}`,
      url: `${origin}/@l${n}`,
      inbox: `${id}/inbox`,
      endpoints: { sharedInbox: `${origin}/inbox` },
      publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: pems[n % pems.length] },
    };
  };

  async function verifySample(req: http.IncomingMessage, body: Buffer) {
    inbox.sampled += 1;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: 'POST',
      headers,
      body: new Uint8Array(body),
    });
    try {
      const key = await verifyRequest(request, {
        documentLoader: loaders.documentLoader,
        contextLoader: loaders.contextLoader,
        keyCache,
      });
      if (key) inbox.verified += 1;
      else {
        inbox.failed += 1;
        if (inbox.failures.length < 3) inbox.failures.push(`not verified: ${Object.keys(req.headers).join(', ')}`);
      }
    } catch (error) {
      inbox.failed += 1;
      if (inbox.failures.length < 3) inbox.failures.push(String(error));
    }
  }

  const handler = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'POST' && path.endsWith('/inbox')) {
      const at = now();
      inbox.posts += 1;
      if (req.headers.signature || req.headers['signature-input']) inbox.signed += 1;
      if (inbox.first === 0) inbox.first = at;
      inbox.last = at;
      res.writeHead(202).end();
      if (inbox.posts % sampleEvery === 1) void verifySample(req, Buffer.concat(chunks));
      return;
    }
    const liker = /^\/users\/l(\d+)$/.exec(path)?.[1];
    if (req.method === 'GET' && liker !== undefined && Number(liker) < likers) {
      fetched.set(path, (fetched.get(path) ?? 0) + 1);
      res.writeHead(200, { 'content-type': AP }).end(JSON.stringify(actorDocument(Number(liker))));
      return;
    }
    res.writeHead(404).end();
  };

  serve({
    /** Listens on `servers` loopback ports: one origin each. */
    async start({ servers: count }: { servers: number }) {
      for (let n = 0; n < count; n += 1) {
        const server = http.createServer({ keepAlive: true }, (req, res) => {
          handler(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        servers.push(server);
        origins.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      }
      return origins;
    },
    async reset({ every }: { every: number }) {
      Object.assign(inbox, { posts: 0, signed: 0, first: 0, last: 0, sampled: 0, verified: 0, failed: 0 });
      inbox.failures = [];
      sampleEvery = every;
      return null;
    },
    async inbox() {
      return inbox;
    },
    /** Makes `actors` liking actors and signs `likes` Likes of `objects` (each actor a different object each time). */
    async signLikes({ actors, likes, objects, to }: { actors: number; likes: number; objects: string[]; to: string }) {
      pairs = await Promise.all(Array.from({ length: Math.min(actors, 8) }, () => rsaPair()));
      for (const pair of pairs) {
        const spki = Buffer.from(await crypto.subtle.exportKey('spki', pair.publicKey));
        const lines = spki
          .toString('base64')
          .match(/.{1,64}/g)!
          .join('\n');
        pems.push(`-----BEGIN PUBLIC KEY-----\n${lines}\n-----END PUBLIC KEY-----\n`);
      }
      likers = actors;
      const started = now();
      signed = [];
      for (let n = 0; n < likes; n += 1) {
        const actor = n % actors;
        const object = objects[Math.floor(n / actors) % objects.length]!;
        const body = JSON.stringify({
          '@context': 'https://www.w3.org/ns/activitystreams',
          id: `${origins[actor % origins.length]}/likes/${n}`,
          type: 'Like',
          actor: likerOf(actor),
          object,
        });
        const request = new Request(to, { method: 'POST', headers: { 'content-type': AP, accept: AP }, body });
        const done = await signRequest(
          request,
          pairs[actor % pairs.length]!.privateKey,
          new URL(`${likerOf(actor)}#main-key`),
        );
        const headers: [string, string][] = [];
        done.headers.forEach((value, name) => headers.push([name, value]));
        signed.push({ url: done.url, headers, body });
      }
      return { seconds: (now() - started) / 1000 };
    },
    /** POSTs the signed Likes, `concurrency` at a time; answers the statuses and the times. */
    async sendLikes({ concurrency }: { concurrency: number }) {
      const statuses: Record<string, number> = {};
      let next = 0;
      const started = now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < signed.length) {
            const like = signed[next]!;
            next += 1;
            // A connection refused or cut (a loaded host) is counted as such, not the end of the run.
            const status = await fetch(like.url, { method: 'POST', headers: like.headers, body: like.body }).then(
              async (response) => {
                await response.arrayBuffer();
                return String(response.status);
              },
              () => 'no answer',
            );
            statuses[status] = (statuses[status] ?? 0) + 1;
          }
        }),
      );
      return { statuses, started, ended: now() };
    },
    async fetched() {
      return { gets: [...fetched.values()].reduce((a, b) => a + b, 0), actors: fetched.size };
    },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// load: autocannon on a URL, counted between `start` and `stop`
// ---------------------------------------------------------------------------------------------------------------

async function load() {
  let instance: autocannon.Instance | undefined;
  const window = { from: 0, count: 0, other: 0, errors: 0, latencies: [] as number[] };
  serve({
    async start({ url, connections }: { url: string; connections: number }) {
      Object.assign(window, { from: now(), count: 0, other: 0, errors: 0, latencies: [] });
      const running = autocannon({ url, connections, duration: 3600 }, () => {});
      instance = running;
      running.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
        if (status >= 200 && status < 300) window.count += 1;
        else window.other += 1;
        window.latencies.push(ms);
      });
      running.on('reqError', () => (window.errors += 1));
      return null;
    },
    async stop() {
      const seconds = (now() - window.from) / 1000;
      instance?.stop();
      instance = undefined;
      const sorted = window.latencies.sort((a, b) => a - b);
      const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
      return { rps: window.count / seconds, seconds, non2xx: window.other, errors: window.errors, p99 };
    },
  });
}

if (process.argv[2] === 'remote') await remote();
else if (process.argv[2] === 'load') await load();
else throw new Error('bench/federation-peers.ts remote|load (forked by bench/federation.ts)');
