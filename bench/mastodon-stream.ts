/**
 * `npx tsx --conditions=source bench/mastodon-stream.ts --database postgres://… [--followers 20] [--works 100]`:
 * what a new work's frame costs on the Mastodon streaming socket (`/api/v1/streaming`, stream `user`: an `update`
 * with the whole Status) against the web app's live socket (`/api/live`: a `post` frame), issue 45. Builds the app
 * in this process on the database given (an empty one: it migrates it and signs people up), signs up an artist and
 * `--followers` followers, and posts `--works` works four times: with no socket open, with one live socket per
 * follower, with one Mastodon socket per follower, with none again. The sockets are a worker thread's; the server's
 * main thread's busy time of a phase (event-loop utilization) less that of the phases without sockets, over the
 * frames received, is what a frame costs the server (its socket writes included; not its GC's other threads).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig, type Config } from '../apps/server/src/config.js';
import { openPostgres } from '../apps/server/src/db/client.js';
import { migrate } from '../apps/server/src/db/migrate.js';
import { signUpThrough } from './sign-up.js';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    followers: { type: 'string', default: '20' },
    works: { type: 'string', default: '100' },
  },
});
if (!values.database) throw new Error('Pass --database postgres://… (an empty database).');
const FOLLOWERS = Number(values.followers);
const WORKS = Number(values.works);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-bench-mastodon-stream-'));
const database = await openPostgres(values.database);
await migrate(database);
const config: Config = {
  ...loadConfig({}),
  jwtSecret: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
  mediaDir: path.join(dataDir, 'media'),
  logLevel: 'silent',
  passwordHashCost: 1024,
  rateLimits: false,
};
const app = await buildApp(config, database);
const origin = await app.listen({ port: 0, host: '127.0.0.1' });
const wsOrigin = origin.replace(/^http/, 'ws');

const signUp = (username: string) => signUpThrough(app, username, 'Stream Person');
const run = Date.now().toString(36);
const artist = await signUp(`artist_${run}`);
const followers: { token: string; id: string }[] = [];
for (let i = 0; i < FOLLOWERS; i += 1) {
  const follower = await signUp(`follower_${run}_${i}`);
  await app.inject({
    method: 'POST',
    url: `/api/users/follow/${artist.id}`,
    headers: { authorization: `Bearer ${follower.token}` },
  });
  followers.push(follower);
}

/**
 * The sockets live in a worker thread (plain JS below), so that their receiving side is not the server's: the
 * server's cost is its main thread's busy time (performance.eventLoopUtilization), phase by phase.
 */
const CLIENTS = `
const { parentPort } = require('node:worker_threads');
let sockets = [];
let frames = 0;
let bytes = 0;
parentPort.on('message', async (message) => {
  if (message.type === 'open') {
    sockets = await Promise.all(message.urls.map((entry) => new Promise((resolve, reject) => {
      const socket = new WebSocket(entry.url);
      socket.addEventListener('error', () => reject(new Error(entry.url + ' did not open')), { once: true });
      socket.addEventListener('message', ({ data }) => {
        const text = String(data);
        if (text.includes('"type":"ready"')) resolve(socket);
        else if (text.includes('"type":"post"') || text.startsWith('{"stream":["user"],"event":"update"')) {
          frames += 1;
          bytes += text.length;
        }
      });
      socket.addEventListener('open', () => {
        if (entry.hello) socket.send(entry.hello);
        else resolve(socket);
      }, { once: true });
    })));
    parentPort.postMessage({ type: 'opened' });
  } else if (message.type === 'peek') {
    parentPort.postMessage({ type: 'peek', frames });
  } else if (message.type === 'count') {
    parentPort.postMessage({ type: 'count', frames, bytes });
    frames = 0;
    bytes = 0;
  } else if (message.type === 'close') {
    for (const socket of sockets) socket.close();
    sockets = [];
    parentPort.postMessage({ type: 'closed' });
  }
});
`;
const clients = new Worker(CLIENTS, { eval: true });
clients.on('error', (error) => {
  throw error;
});
const ask = <T>(message: object) =>
  new Promise<T>((resolve) => {
    clients.once('message', resolve);
    clients.postMessage(message);
  });

const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

/** Posts WORKS works; the main thread's busy milliseconds of it and of the frames it made, and the frames received. */
async function post(expected = 0): Promise<{ busy: number; frames: number; bytes: number }> {
  await settle();
  await ask({ type: 'count' });
  const before = performance.eventLoopUtilization();
  for (let i = 0; i < WORKS; i += 1) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { authorization: `Bearer ${artist.token}`, prefer: 'return=minimal' },
      payload: { content: `Study ${i} of the #harbour` },
    });
    if (response.statusCode !== 201) throw new Error(`post: ${response.statusCode} ${response.body}`);
  }
  // Every frame received (or 60 s), then a pause for what comes after.
  for (let waited = 0; waited < 60_000; waited += 100) {
    if ((await ask<{ frames: number }>({ type: 'peek' })).frames >= expected) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await settle();
  const busy = performance.eventLoopUtilization(before).active;
  const { frames, bytes } = await ask<{ frames: number; bytes: number }>({ type: 'count' });
  return { busy, frames, bytes };
}

await post(); // warm
const alone = await post();
await ask({
  type: 'open',
  urls: followers.map((follower) => ({
    url: `${wsOrigin}/api/live`,
    hello: JSON.stringify({ type: 'hello', token: follower.token, posts: [] }),
  })),
});
const web = await post(FOLLOWERS * WORKS);
await ask({ type: 'close' });
await ask({
  type: 'open',
  urls: followers.map((follower) => ({
    url: `${wsOrigin}/api/v1/streaming?stream=user&access_token=${follower.token}`,
  })),
});
const mastodon = await post(FOLLOWERS * WORKS);
await ask({ type: 'close' });
const again = await post();
await clients.terminate();
const base = (alone.busy + again.busy) / 2;
const perFrame = (phase: { busy: number; frames: number }) => ((phase.busy - base) * 1000) / Math.max(1, phase.frames);
console.log(
  `${FOLLOWERS} followers, ${WORKS} works a phase; the server's main thread with no sockets: ${alone.busy.toFixed(0)} and ${again.busy.toFixed(0)} ms busy`,
);
for (const [name, phase] of [
  ['web app /api/live (post)', web],
  ['Mastodon /api/v1/streaming (update)', mastodon],
] as const) {
  console.log(
    `${name.padEnd(38)} ${phase.busy.toFixed(0)} ms, ${phase.frames} frames of ${(phase.bytes / Math.max(1, phase.frames)).toFixed(0)} characters, ${perFrame(phase).toFixed(0)} µs a frame`,
  );
}
await app.close();
await database.close();
await rm(dataDir, { recursive: true, force: true });
