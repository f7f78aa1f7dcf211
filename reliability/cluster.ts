/**
 * Three machines (issue 25's "done when"): three server processes of the production build (`npm run build`
 * first), each on its own port with its own data folder and WORKERS=1, as if on three machines behind a
 * load balancer, sharing a private PostgreSQL primary and its streaming replica (DATABASE_REPLICA_URLS),
 * a private Redis (REDIS_URL: the rate limits) and an s3rver bucket (MEDIA_STORE=s3). Then:
 *
 * 1. a picture uploaded through one process is served by all three (the same bytes; the original as sent);
 * 2. a rate limit holds across all three: sign-ups from one address, sent to the processes in turn,
 *    are refused after the limit's total, then by each of them;
 * 3. a load of ~12 s across all three: sign-ins, posts (some with a picture uploaded through another
 *    process), likes and dislikes, follows and unfollows, comments, reads, while live sockets held by
 *    different processes hear of the comments answered by the others;
 * 4. halfway, one process is killed with kill -9: its sockets reconnect to another process, the balancer
 *    drops it, and every request to the other two goes on succeeding;
 * 5. afterwards every write acknowledged (2xx) by any process is in the database, the toggles' last
 *    acknowledged state is the rows' state, every counter equals its rows, every comment on a post of a
 *    socket's owner was heard by that socket (live or replayed after its reconnect), and the pictures
 *    uploaded through the killed process are served by the others.
 *
 * Skipped with a message when the PostgreSQL binaries or redis-server are missing. Everything it starts is
 * private (its own ports and folders) and is removed after; the machine's PostgreSQL and Redis are untouched.
 * Env: CLUSTER_SEED (replay the load's choices), CLUSTER_DURATION (s, default 12).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { postgresBinaries, TestCluster } from '../apps/server/src/test/pg-cluster.js';
import {
  CheckFailed,
  dropIdleSockets,
  errorCode,
  randomGenerator,
  request,
  runCheck,
  COUNTER_CHECKS,
  seedFrom,
  sleep,
  startServer,
  tail,
  tempDir,
  type Answer,
  type ServerProcess,
} from './lib.js';

const DURATION_MS = Number(process.env.CLUSTER_DURATION || 12) * 1000;
const PERSONAS = 18;
/** Authors whose live sockets are checked: two on each process. */
const AUTHORS = 6;
/** `POST /api/auth/signup`'s limit per address (README, Limits). */
const SIGNUP_LIMIT = 10;
const PASSWORD = 'cluster-check-pw';
const JWT_SECRET = 'cluster-check-secret-of-at-least-32-characters';
const APP_PORTS = [3701, 3702, 3703, 3704, 3705, 3706, 3707, 3708, 3709];

/** A port on 127.0.0.1 nobody listens on, from `ports` (this check's own range). */
async function freePortOf(ports: number[], taken: Set<number> = new Set()): Promise<number> {
  for (const port of ports) {
    if (taken.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) {
      taken.add(port);
      return port;
    }
  }
  throw new CheckFailed(`No free port among ${ports[0]}-${ports.at(-1)}.`);
}

/** A private redis-server on 6380-6389 (the API tests use 6390-6399), never the machine's shared one. */
async function privateRedis(): Promise<{ url: string; child: ChildProcess }> {
  for (let port = 6380; port <= 6389; port += 1) {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const ready = await new Promise<boolean>((resolve) => {
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          child.stdout!.removeAllListeners('data');
          child.stdout!.resume();
          resolve(true);
        }
      });
      child.once('exit', () => resolve(false));
    });
    if (ready) return { url: `redis://127.0.0.1:${port}`, child };
  }
  throw new CheckFailed('redis-server could not start on any port from 6380 to 6389.');
}

/**
 * An s3rver (the S3 protocol over a folder) on a free port with one bucket. Not test/s3.ts's: that one's
 * types pull in the media module, whose routes need plugins' type augmentations this project lacks.
 */
async function privateS3(dir: string): Promise<{ endpoint: string; bucket: string; close(): Promise<void> }> {
  const S3rver = createRequire(import.meta.url)('s3rver') as new (options: {
    port: number;
    address: string;
    directory: string;
    silent: boolean;
  }) => { run(): Promise<{ port: number }>; close(): Promise<void>; httpServer: { closeAllConnections(): void } };
  mkdirSync(dir, { recursive: true });
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory: dir, silent: true });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = 'share-arts-cluster';
  const made = await fetch(`${endpoint}/${bucket}`, { method: 'PUT' });
  if (!made.ok) throw new CheckFailed(`s3rver did not make the bucket: ${made.status} ${await made.text()}`);
  return {
    endpoint,
    bucket,
    close: async () => {
      const closed = server.close();
      // The servers' keep-alive connections would hold it open.
      server.httpServer.closeAllConnections();
      await closed;
    },
  };
}

/** A small PNG of its own colours per n (so no two uploads are the same file). */
const png = (n: number) =>
  sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: (n * 37) % 256, g: (n * 91) % 256, b: 200 } },
  })
    .png()
    .toBuffer();

async function upload(base: string, token: string, data: Buffer, name: string) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), name);
  const started = performance.now();
  const response = await fetch(`${base}/api/media`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(20_000),
  });
  const body = (await response.json().catch(() => undefined)) as
    { media: { _id: string; url: string; originalUrl: string } } | undefined;
  return { status: response.status, body, ms: performance.now() - started };
}

async function bytesOf(base: string, url: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(new URL(url, base), { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

interface User {
  id: string;
  username: string;
  token: string;
}

interface Node {
  name: string;
  server: ServerProcess;
  /** In the balancer's rotation (false once it was killed). */
  up: boolean;
}

/** A live socket of an author: the comment notifications it heard, by comment id. */
interface LiveWatcher {
  author: User;
  node: Node;
  heard: Set<string>;
  lastEventId: string | null;
  socket: WebSocket;
  reconnectedMs?: number;
}

async function main() {
  const binaries = postgresBinaries();
  if ('missing' in binaries) {
    console.log(`Skipped: ${binaries.missing}.`);
    return;
  }
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    console.log('Skipped: redis-server is not installed (apt-get install redis-server).');
    return;
  }
  const seed = seedFrom('CLUSTER_SEED');
  const rnd = randomGenerator(seed);
  const lines: string[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];
  const nodes: Node[] = [];
  let db: pg.Client | undefined;
  const folder = tempDir('cluster');
  try {
    // ---------------------------------------------------------------------------------------------
    // The machines
    const setupStarted = performance.now();
    const primary = await TestCluster.primary(binaries.bin, [5450, 5451, 5452, 5453, 5454]);
    cleanups.push(() => primary.destroy());
    const replica = await TestCluster.replicaOf(primary, [5455, 5456, 5457, 5458, 5459]);
    cleanups.push(() => replica.destroy());
    const redis = await privateRedis();
    cleanups.push(() => void redis.child.kill('SIGKILL'));
    const s3 = await privateS3(path.join(folder, 's3'));
    cleanups.push(() => s3.close());
    const env = {
      DATABASE_REPLICA_URLS: replica.url(),
      REDIS_URL: redis.url,
      MEDIA_STORE: 's3',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      // Every machine signs and checks the same tokens.
      JWT_SECRET,
      WORKERS: '1',
    };
    const taken = new Set<number>();
    const start = async (name: string) => {
      const dataDir = path.join(folder, name);
      const server = await startServer({
        port: await freePortOf(APP_PORTS, taken),
        dataDir,
        databaseUrl: primary.url(),
        logFile: path.join(folder, `${name}.log`),
        env,
      });
      const node: Node = { name, server, up: true };
      nodes.push(node);
      return node;
    };
    // The first migrates and loads the sample data (its pictures into the bucket); the others start together.
    const a = await start('A');
    const [b, c] = await Promise.all([start('B'), start('C')]);
    nodes.sort((x, y) => x.name.localeCompare(y.name));
    lines.push(
      `- Set up in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s: primary :${primary.port}, replica :${replica.port}, ` +
        `Redis ${redis.url}, s3rver ${s3.endpoint}; processes A ${a.server.url} (pid ${a.server.pid}), B ${b!.server.url}, C ${c!.server.url}.`,
    );
    db = new pg.Client({ connectionString: primary.url() });
    await db.connect();

    // ---------------------------------------------------------------------------------------------
    // 2. A rate limit across all three: sign-ups from one address, to A, B, C, A, … The first ten are the
    // load's authors.
    const signUp = async (node: Node, username: string, localAddress: string) =>
      request(node.server.url, 'POST', '/api/auth/signup', {
        body: { fullname: `Cluster ${username}`, email: `${username}@example.com`, username, password: PASSWORD },
        localAddress,
        timeoutMs: 30_000,
      });
    const prefix = `cl${Date.now().toString(36).slice(-5)}_`;
    const toUser = (answer: Answer, username: string): User => ({
      id: answer.body.createdUser._id,
      username,
      token: answer.body.encodedToken,
    });
    const limited: User[] = [];
    const limitStatuses: string[] = [];
    for (let n = 0; n < SIGNUP_LIMIT + 3; n += 1) {
      const node = nodes[n % 3]!;
      const username = `${prefix}rl${n}`;
      const answer = await signUp(node, username, '127.0.0.200');
      limitStatuses.push(`${node.name}:${answer.status}`);
      if (n < SIGNUP_LIMIT) {
        if (answer.status !== 201) {
          throw new CheckFailed(`Sign-up ${n + 1} of ${SIGNUP_LIMIT} (to ${node.name}) answered ${answer.status}.`);
        }
        limited.push(toUser(answer, username));
      } else if (answer.status !== 429) {
        throw new CheckFailed(
          `Sign-up ${n + 1} from one address, past the limit of ${SIGNUP_LIMIT} counted over the three processes, ` +
            `answered ${answer.status} on ${node.name} (${limitStatuses.join(' ')}): the limit is not shared.`,
        );
      }
    }
    lines.push(
      `- Rate limit across the three: ${SIGNUP_LIMIT} sign-ups from one address sent to A, B, C in turn answered 201, ` +
        `then each process answered 429 (${limitStatuses.slice(SIGNUP_LIMIT).join(', ')}).`,
    );

    // The personas: 10 sign-ups per address, each through the next process.
    const personas: User[] = [...limited];
    for (let n = 0; personas.length < PERSONAS + AUTHORS; n += 1) {
      const username = `${prefix}p${n}`;
      const answer = await signUp(nodes[n % 3]!, username, `127.0.0.${201 + Math.floor(n / SIGNUP_LIMIT)}`);
      if (answer.status !== 201) throw new CheckFailed(`Sign-up of ${username} answered ${answer.status}.`);
      personas.push(toUser(answer, username));
    }
    const authors = personas.slice(0, AUTHORS);
    const everyone = personas;

    // ---------------------------------------------------------------------------------------------
    // 1. A picture uploaded through A is served by B and C.
    const first = await png(0);
    const uploaded = await upload(a.server.url, authors[0]!.token, first, 'first.png');
    if (uploaded.status !== 201) throw new CheckFailed(`An upload to A answered ${uploaded.status}.`);
    const served: string[] = [];
    let variant: Buffer | undefined;
    for (const node of nodes) {
      const original = await bytesOf(node.server.url, uploaded.body!.media.originalUrl);
      const resized = await bytesOf(node.server.url, uploaded.body!.media.url);
      if (original.status !== 200 || !original.bytes.equals(first)) {
        throw new CheckFailed(
          `${node.name} served the original uploaded through A with ${original.status}, other bytes.`,
        );
      }
      if (resized.status !== 200 || (variant && !resized.bytes.equals(variant))) {
        throw new CheckFailed(`${node.name} served the picture's variant with ${resized.status}, or other bytes.`);
      }
      variant = resized.bytes;
      served.push(`${node.name} 200`);
    }
    lines.push(
      `- A picture uploaded through A (${first.length} B PNG): its original (the same bytes) and its ${variant!.length} B variant served by ${served.join(', ')}.`,
    );

    // The authors' first posts, so there is something to like and comment on from the start.
    const posts: { id: string; authorId: string }[] = [];
    for (const [i, author] of authors.entries()) {
      const answer = await request(nodes[i % 3]!.server.url, 'POST', '/api/posts', {
        token: author.token,
        body: { content: `Cluster post ${i} #cluster` },
      });
      if (answer.status !== 201) throw new CheckFailed(`A first post answered ${answer.status}.`);
      posts.push({ id: answer.body.post._id, authorId: author.id });
    }

    // ---------------------------------------------------------------------------------------------
    // Live sockets: author i on process i % 3 (two on each), each hearing its comment notifications.
    const connect = (watcher: LiveWatcher) =>
      new Promise<void>((resolve, reject) => {
        const socket = new WebSocket(`${watcher.node.server.url.replace('http', 'ws')}/api/live`);
        watcher.socket = socket;
        socket.addEventListener('error', () => reject(new CheckFailed(`${socket.url} did not open.`)), { once: true });
        socket.addEventListener(
          'open',
          () =>
            socket.send(
              JSON.stringify({ type: 'hello', token: watcher.author.token, lastEventId: watcher.lastEventId }),
            ),
          { once: true },
        );
        socket.addEventListener('message', ({ data }) => {
          const frame = JSON.parse(String(data)) as { type: string; id?: string; kind?: string; commentId?: string };
          if (frame.type === 'ready') resolve();
          if (frame.type === 'notification') {
            watcher.lastEventId = frame.id ?? watcher.lastEventId;
            if (frame.kind === 'comment' && frame.commentId) watcher.heard.add(frame.commentId);
          }
        });
      });
    const watchers: LiveWatcher[] = authors.map((author, i) => ({
      author,
      node: nodes[i % 3]!,
      heard: new Set(),
      lastEventId: null,
      socket: undefined as unknown as WebSocket,
    }));
    await Promise.all(watchers.map(connect));
    cleanups.push(() => watchers.forEach((w) => w.socket.close()));

    // ---------------------------------------------------------------------------------------------
    // 3 and 4. The load, with C killed halfway.
    interface Ledger {
      users: string[];
      posts: string[];
      media: { id: string; node: string; url: string; originalUrl: string; bytes: Buffer }[];
      comments: { id: string; postId: string; node: string }[];
      /** user|post → the last acknowledged reaction; undefined once a request about it is in doubt. */
      reactions: Map<string, 'like' | 'dislike' | 'doubt'>;
      follows: Map<string, boolean | 'doubt'>;
    }
    const ledger: Ledger = {
      users: everyone.map((u) => u.id),
      posts: posts.map((p) => p.id),
      media: [
        {
          id: uploaded.body!.media._id,
          node: 'A',
          url: uploaded.body!.media.url,
          originalUrl: uploaded.body!.media.originalUrl,
          bytes: first,
        },
      ],
      comments: [],
      reactions: new Map(),
      follows: new Map(),
    };
    // One picture through C before the load, so there is always one of its uploads to read after its death.
    const throughC = await png(1);
    const uploadedToC = await upload(c!.server.url, authors[1]!.token, throughC, 'through-c.png');
    if (uploadedToC.status !== 201) throw new CheckFailed(`An upload to C answered ${uploadedToC.status}.`);
    const { _id: cId, url: cUrl, originalUrl: cOriginal } = uploadedToC.body!.media;
    ledger.media.push({ id: cId, node: 'C', url: cUrl, originalUrl: cOriginal, bytes: throughC });
    const stats = {
      requests: 0,
      latencies: [] as number[],
      byNode: new Map<string, number>(),
      statuses: new Map<string, number>(),
      /** Requests to A or B (never killed) that failed: must stay empty. */
      survivorFailures: [] as string[],
      /** Requests to C in flight at its kill: their writes may or may not have happened. */
      inDoubt: [] as string[],
      /** 429s by route: over a per-user or per-address limit, refused and not written. */
      refused429: new Map<string, number>(),
      /** Requests sent to C after its death, before the balancer dropped it: refused, never applied. */
      neverReached: 0,
    };
    const loadStarted = performance.now();
    let killedAt: number | undefined;
    let firstAfterKill: number | undefined;
    const victim = c!;
    const balancer = () => {
      const up = nodes.filter((n) => n.up);
      return up[Math.floor(rnd.next() * up.length)]!;
    };
    let uploads = 0;

    /** One request through `node`: the answer, or 'doubt' when the node died under it. */
    const send = async (
      node: Node,
      label: string,
      call: () => Promise<{ status: number; ms: number }>,
    ): Promise<'doubt' | 'refused' | number> => {
      stats.requests += 1;
      stats.byNode.set(node.name, (stats.byNode.get(node.name) ?? 0) + 1);
      try {
        const answer = await call();
        stats.latencies.push(answer.ms);
        const key = `${label} ${answer.status}`;
        stats.statuses.set(key, (stats.statuses.get(key) ?? 0) + 1);
        if (killedAt !== undefined && node !== victim && firstAfterKill === undefined && answer.status < 400) {
          firstAfterKill = performance.now() - killedAt;
        }
        if (answer.status === 429) {
          stats.refused429.set(label, (stats.refused429.get(label) ?? 0) + 1);
          return 'refused';
        }
        // Every toggle goes the way the ledger says, so any other 4xx (or a 5xx) is a failure.
        if (answer.status >= 400) {
          stats.survivorFailures.push(`${label} through ${node.name} answered ${answer.status}`);
          return 'doubt';
        }
        return answer.status;
      } catch (error) {
        if (node === victim && killedAt !== undefined) {
          // Refused: it never reached C (a balancer retries it elsewhere); anything else may have been applied.
          if (errorCode(error) === 'ECONNREFUSED') stats.neverReached += 1;
          else stats.inDoubt.push(`${label}: ${errorCode(error)}`);
          return 'doubt';
        }
        stats.survivorFailures.push(`${label} through ${node.name}: ${errorCode(error)}`);
        return 'doubt';
      }
    };

    // Posts and comments carry a marker of their own, so a write without an answer can be looked for after.
    let markers = 0;
    const nextMarker = () => `[w${(markers += 1)}]`;
    /** Writes whose process died under them (either way is right), and writes refused (must not be there). */
    const inDoubt: { table: 'posts' | 'comments'; marker: string }[] = [];
    const refused: { table: 'posts' | 'comments'; marker: string }[] = [];
    const unacknowledged = (table: 'posts' | 'comments', marker: string, result: Awaited<ReturnType<typeof send>>) => {
      if (result === 'doubt') inDoubt.push({ table, marker });
      if (result === 'refused') refused.push({ table, marker });
    };
    const act = async (me: User, address: string) => {
      const node = balancer();
      const base = node.server.url;
      const roll = rnd.next();
      const recent = () => posts[Math.max(0, posts.length - 1 - Math.floor(rnd.next() * 40))]!;
      if (roll < 0.15) {
        await send(node, 'GET /api/posts', () => request(base, 'GET', '/api/posts?limit=20', { token: me.token }));
      } else if (roll < 0.25) {
        await send(node, 'GET /api/posts/:id', () => request(base, 'GET', `/api/posts/${recent().id}`));
      } else if (roll < 0.33) {
        let answer: Answer | undefined;
        const marker = nextMarker();
        const result = await send(node, 'POST /api/posts', async () => {
          answer = await request(base, 'POST', '/api/posts', {
            token: me.token,
            body: { content: `Under load ${marker} #cluster` },
          });
          return answer;
        });
        unacknowledged('posts', marker, result);
        if (answer?.status === 201) {
          posts.push({ id: answer.body.post._id, authorId: me.id });
          ledger.posts.push(answer.body.post._id);
        }
      } else if (roll < 0.4 && uploads < 30) {
        // A picture through one process, its post through another (the balancer's next pick).
        uploads += 1;
        const data = await png(1000 + uploads);
        let media: Awaited<ReturnType<typeof upload>> | undefined;
        await send(node, 'POST /api/media', async () => {
          media = await upload(base, me.token, data, `load-${uploads}.png`);
          return media;
        });
        if (media?.status !== 201) return;
        const m = media.body!.media;
        ledger.media.push({ id: m._id, node: node.name, url: m.url, originalUrl: m.originalUrl, bytes: data });
        const other = balancer();
        let answer: Answer | undefined;
        const marker = nextMarker();
        const result = await send(other, 'POST /api/posts (picture)', async () => {
          answer = await request(other.server.url, 'POST', '/api/posts', {
            token: me.token,
            body: { content: `A picture under load ${marker} #cluster`, mediaIds: [m._id] },
          });
          return answer;
        });
        unacknowledged('posts', marker, result);
        if (answer?.status === 201) {
          posts.push({ id: answer.body.post._id, authorId: me.id });
          ledger.posts.push(answer.body.post._id);
        }
      } else if (roll < 0.62) {
        const post = recent();
        const key = `${me.id}|${post.id}`;
        const state = ledger.reactions.get(key);
        if (state === 'doubt') return;
        const kind = state === 'like' ? 'dislike' : 'like';
        const result = await send(node, `POST /api/posts/${kind}`, () =>
          request(base, 'POST', `/api/posts/${kind}/${post.id}`, {
            token: me.token,
            headers: { prefer: 'return=minimal' },
          }),
        );
        if (result === 201) ledger.reactions.set(key, kind);
        else if (result === 'doubt') ledger.reactions.set(key, 'doubt');
      } else if (roll < 0.74) {
        const target = everyone[Math.floor(rnd.next() * everyone.length)]!;
        if (target.id === me.id) return;
        const key = `${me.id}|${target.id}`;
        const state = ledger.follows.get(key);
        if (state === 'doubt') return;
        const follow = state !== true;
        const result = await send(node, `POST /api/users/${follow ? 'follow' : 'unfollow'}`, () =>
          request(base, 'POST', `/api/users/${follow ? 'follow' : 'unfollow'}/${target.id}`, { token: me.token }),
        );
        if (result === 200) ledger.follows.set(key, follow);
        else if (result === 'doubt') ledger.follows.set(key, 'doubt');
      } else if (roll < 0.94) {
        // Half the comments go to the watched authors' first posts.
        const post = rnd.next() < 0.5 ? posts[Math.floor(rnd.next() * AUTHORS)]! : recent();
        let answer: Answer | undefined;
        const marker = nextMarker();
        const result = await send(node, 'POST /api/posts/:id/comment', async () => {
          answer = await request(base, 'POST', `/api/posts/${post.id}/comment`, {
            token: me.token,
            body: { commentData: { content: `A comment through ${node.name} ${marker}` } },
          });
          return answer;
        });
        unacknowledged('comments', marker, result);
        if (answer?.status === 201) {
          ledger.comments.push({ id: answer.body.comment._id, postId: post.id, node: node.name });
        }
      } else {
        await send(node, 'POST /api/auth/login', () =>
          request(base, 'POST', '/api/auth/login', {
            body: { username: me.username, password: PASSWORD },
            // Each person signs in from an address of their own (the limit is 30 a minute per address).
            localAddress: address,
            timeoutMs: 30_000,
          }),
        );
      }
    };

    const killAfter = DURATION_MS * 0.45;
    const killer = (async () => {
      await sleep(killAfter);
      killedAt = performance.now();
      await victim.server.kill9();
      // The balancer's health check notices the next moment; requests already sent to it are in doubt.
      victim.up = false;
      dropIdleSockets();
    })();
    // Sockets held by C reconnect to the next process, with the last notification they saw.
    for (const watcher of watchers.filter((w) => w.node === victim)) {
      watcher.socket.addEventListener('close', () => {
        const began = performance.now();
        watcher.node = a;
        void (async () => {
          for (let i = 0; i < 50; i += 1) {
            const ok = await connect(watcher).then(
              () => true,
              () => false,
            );
            if (ok) {
              watcher.reconnectedMs = performance.now() - began;
              return;
            }
            await sleep(100);
          }
        })();
      });
    }
    await Promise.all(
      personas.slice(AUTHORS).map(async (me, i) => {
        while (performance.now() - loadStarted < DURATION_MS) await act(me, `127.0.0.${100 + i}`);
      }),
    );
    await killer;
    const loadMs = performance.now() - loadStarted;

    // ---------------------------------------------------------------------------------------------
    // 5. Afterwards.
    if (stats.survivorFailures.length > 0) {
      throw new CheckFailed(
        `Requests to the processes left running failed (${stats.survivorFailures.length}):\n  ${stats.survivorFailures.slice(0, 10).join('\n  ')}`,
      );
    }
    const missing: string[] = [];
    const present = async (table: string, ids: string[]) => {
      const { rows } = await db!.query<{ id: string }>(`select id from ${table} where id = any($1::uuid[])`, [ids]);
      const found = new Set(rows.map((r) => r.id));
      for (const id of ids) if (!found.has(id)) missing.push(`${table} ${id}`);
    };
    await present('users', ledger.users);
    await present('posts', ledger.posts);
    await present(
      'media',
      ledger.media.map((m) => m.id),
    );
    await present(
      'comments',
      ledger.comments.map((x) => x.id),
    );
    const { rows: reactionRows } = await db.query<{ user_id: string; post_id: string; kind: string }>(
      'select user_id, post_id, kind from post_reactions where user_id = any($1::uuid[])',
      [ledger.users],
    );
    const reactionsNow = new Map(reactionRows.map((r) => [`${r.user_id}|${r.post_id}`, r.kind]));
    let checkedToggles = 0;
    for (const [key, state] of ledger.reactions) {
      if (state === 'doubt') continue;
      checkedToggles += 1;
      if (reactionsNow.get(key) !== state)
        missing.push(`reaction ${key}: acknowledged ${state}, row ${reactionsNow.get(key)}`);
    }
    const { rows: followRows } = await db.query<{ follower_id: string; followee_id: string }>(
      'select follower_id, followee_id from follows where follower_id = any($1::uuid[])',
      [ledger.users],
    );
    const followsNow = new Set(followRows.map((r) => `${r.follower_id}|${r.followee_id}`));
    for (const [key, state] of ledger.follows) {
      if (state === 'doubt') continue;
      checkedToggles += 1;
      if (followsNow.has(key) !== state)
        missing.push(`follow ${key}: acknowledged ${state}, row ${followsNow.has(key)}`);
    }
    if (missing.length > 0) {
      throw new CheckFailed(
        `Acknowledged writes missing or different (${missing.length}):\n  ${missing.slice(0, 10).join('\n  ')}`,
      );
    }
    // Refused writes are not there; writes in doubt are either way, and counted.
    const written = async ({ table, marker }: { table: string; marker: string }) =>
      (await db!.query(`select 1 from ${table} where content like '%' || $1 || '%'`, [marker])).rowCount! > 0;
    for (const write of refused) {
      if (await written(write))
        throw new CheckFailed(`A write refused with 429 is in ${write.table}: ${write.marker}.`);
    }
    let doubtApplied = 0;
    for (const write of inDoubt) if (await written(write)) doubtApplied += 1;
    const wrongCounters: string[] = [];
    for (const row of (await db.query<{ counter: string; wrong: number }>(COUNTER_CHECKS)).rows) {
      if (Number(row.wrong) > 0) wrongCounters.push(`${row.counter}: ${row.wrong} rows differ from the count`);
    }
    if (wrongCounters.length > 0)
      throw new CheckFailed(`Counters differ from their rows:\n  ${wrongCounters.join('\n  ')}`);

    // A comment on each watched author's first post through the survivor its socket is not on, so every
    // socket has one at least that crossed processes, whatever the load's choices.
    for (const [i, watcher] of watchers.entries()) {
      const through = watcher.node === a ? b! : a;
      const commenter = personas[AUTHORS + i]!;
      const answer = await request(through.server.url, 'POST', `/api/posts/${posts[i]!.id}/comment`, {
        token: commenter.token,
        body: { commentData: { content: `After the kill, through ${through.name}` } },
      });
      if (answer.status !== 201) throw new CheckFailed(`A comment through ${through.name} answered ${answer.status}.`);
      ledger.comments.push({ id: answer.body.comment._id, postId: posts[i]!.id, node: through.name });
    }

    // Every comment by someone else on a watched author's post was heard by that author's socket.
    const authorOf = new Map(posts.map((p) => [p.id, p.authorId]));
    const expectedHeard = new Map<LiveWatcher, { id: string; node: string }[]>();
    for (const comment of ledger.comments) {
      const watcher = watchers.find((w) => w.author.id === authorOf.get(comment.postId));
      if (watcher) expectedHeard.set(watcher, [...(expectedHeard.get(watcher) ?? []), comment]);
    }
    const unheard = () =>
      [...expectedHeard].flatMap(([w, list]) => list.filter((x) => !w.heard.has(x.id)).map((x) => ({ w, x })));
    for (let waited = 0; unheard().length > 0 && waited < 5000; waited += 100) await sleep(100);
    const notHeard = unheard();
    if (notHeard.length > 0) {
      throw new CheckFailed(
        `${notHeard.length} comment notifications never reached their author's socket, such as the comment ${notHeard[0]!.x.id} answered by ${notHeard[0]!.x.node} for the socket on ${notHeard[0]!.w.node.name}.`,
      );
    }
    const crossHeard = watchers.map(
      (w) => (expectedHeard.get(w) ?? []).filter((x) => x.node !== w.node.name && w.heard.has(x.id)).length,
    );
    if (crossHeard.some((n) => n === 0)) {
      throw new CheckFailed(`A socket heard no comment answered by another process (${crossHeard.join(', ')}).`);
    }

    // The pictures uploaded through C before its death are served by A and B (the same bytes).
    const fromVictim = ledger.media.filter((m) => m.node === victim.name);
    for (const picture of fromVictim) {
      for (const node of [a, b!]) {
        const original = await bytesOf(node.server.url, picture.originalUrl);
        if (original.status !== 200 || !original.bytes.equals(picture.bytes)) {
          throw new CheckFailed(
            `${node.name} served a picture uploaded through C with ${original.status} or other bytes.`,
          );
        }
      }
    }

    const sorted = [...stats.latencies].sort((x, y) => x - y);
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!.toFixed(0);
    const reconnects = watchers.filter((w) => w.reconnectedMs !== undefined).map((w) => w.reconnectedMs!.toFixed(0));
    lines.push(
      `- Load: ${stats.requests} requests in ${(loadMs / 1000).toFixed(1)} s from ${PERSONAS} people (${[
        ...stats.byNode,
      ]
        .map(([n, k]) => `${n} ${k}`)
        .join(
          ', ',
        )}); p50 ${pct(50)} ms, p99 ${pct(99)} ms; ${ledger.posts.length} posts, ${ledger.media.length} pictures, ` +
        `${ledger.comments.length} comments acknowledged; 429 (over a limit): ${
          [...stats.refused429].map(([route, n]) => `${route} × ${n}`).join(', ') || 'none'
        }.`,
      `- kill -9 of C after ${(killAfter / 1000).toFixed(1)} s: ${stats.inDoubt.length} requests in flight to it lost (in doubt, left out of the ledger; of its ${inDoubt.length} posts and comments, ${doubtApplied} were written), ` +
        `${stats.neverReached} refused before the balancer dropped it; ` +
        `the first success on A or B came ${firstAfterKill?.toFixed(0) ?? '?'} ms after; no request to A or B failed; ` +
        `its sockets reconnected to A in ${reconnects.join(' and ') || '?'} ms and heard what they missed.`,
      `- Afterwards: every acknowledged write is there (${ledger.users.length} users, ${ledger.posts.length} posts, ${ledger.media.length} pictures, ` +
        `${ledger.comments.length} comments, ${checkedToggles} likes/dislikes/follows in their last acknowledged state); every counter equals its rows; ` +
        `the ${AUTHORS} sockets heard every comment on their posts (${crossHeard.join(', ')} answered by another process); ` +
        `the ${fromVictim.length} pictures uploaded through C are served by A and B.`,
    );
    lines.push(`- Seed ${seed} (CLUSTER_SEED to replay the choices).`);
  } catch (error) {
    if (error instanceof CheckFailed) {
      for (const node of nodes)
        error.message += `\nLog of ${node.name}:\n${tail(path.join(folder, `${node.name}.log`), 15)}`;
    }
    throw error;
  } finally {
    await db?.end().catch(() => {});
    await Promise.all(nodes.map((n) => (n.server.alive() ? n.server.kill9() : undefined)));
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
    rmSync(folder, { recursive: true, force: true });
    for (const line of lines) console.log(line);
  }
}

await runCheck('Cluster check', main);
