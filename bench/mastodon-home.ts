/**
 * `npm run bench:mastodon -- [--database postgres://…] [--posts 2000] [--rounds 5] [--requests 300]`: the Home
 * timeline through the Mastodon API (`GET /api/v1/timelines/home`, issue 45) against Share Arts' own Home
 * (`GET /api/feed`), the same viewer, page size (20) and posts. It builds the app in this process (PGlite in a
 * temporary folder, or the PostgreSQL database given, which it fills: use an empty one), signs up an artist and a
 * follower, writes `--posts` works (each with a comment), then, `--rounds` times, sends `--requests` requests to
 * each route, alternating one by one (through Fastify's inject: no sockets, so the figures are the routes' own cost) and
 * prints each route's median milliseconds per request, and the median over the rounds of the Mastodon route's
 * speed relative to our own (the issue asks ≥ 0.8).
 *
 * `--seeded --database postgres://…` measures a database filled by `npm run bench:seed` (1M posts) instead, and
 * writes nothing but the viewer's session: the viewer is `--viewer` (default bench_1, whom the seed makes follow
 * the 500 most followed artists), signed in by POST /api/auth/login with the seed's password (the sample
 * account's, which every seeded user shares).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TEST_CREDENTIALS } from '@share-arts/contract';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig, type Config } from '../apps/server/src/config.js';
import { openPglite, openPostgres } from '../apps/server/src/db/client.js';
import { migrate } from '../apps/server/src/db/migrate.js';
import { signUpThrough } from './sign-up.js';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    posts: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '5' },
    requests: { type: 'string', default: '300' },
    seeded: { type: 'boolean', default: false },
    viewer: { type: 'string', default: 'bench_1' },
  },
});
if (values.seeded && !values.database) {
  throw new Error('--seeded needs --database postgres://… (a database filled by npm run bench:seed).');
}
const POSTS = Number(values.posts);
const ROUNDS = Number(values.rounds);
const REQUESTS = Number(values.requests);

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-bench-mastodon-'));
const database = values.database ? await openPostgres(values.database) : await openPglite(path.join(dataDir, 'db'));
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
await app.ready();

const signUp = (username: string) => signUpThrough(app, username);

const as = (who: { token: string }) => ({ authorization: `Bearer ${who.token}` });

/** The seeded viewer, signed in as a person would (the seed's password). */
async function signIn(username: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password: TEST_CREDENTIALS.password },
  });
  if (response.statusCode !== 200) throw new Error(`${username}: ${response.statusCode} ${response.body}`);
  const found = response.json().foundUser as { _id: string; followingCount?: number };
  return { token: response.json().encodedToken as string, id: found._id, following: found.followingCount };
}

/** Signs up an artist and a follower and writes POSTS works (each tenth with a comment): the unseeded run. */
async function writeWorks() {
  const suffix = Date.now().toString(36);
  const artist = await signUp(`artist_${suffix}`);
  const reader = await signUp(`reader_${suffix}`);
  await app.inject({ method: 'POST', url: `/api/users/follow/${artist.id}`, headers: as(reader) });
  for (let i = 0; i < POSTS; i += 1) {
    const post = await app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { ...as(artist), prefer: 'return=minimal' },
      payload: { content: `Study ${i} of the #harbour for @reader_${suffix}` },
    });
    if (i % 10 === 0) {
      await app.inject({
        method: 'POST',
        url: `/api/posts/${post.json().post._id}/comment`,
        headers: as(reader),
        payload: { content: 'Lovely' },
      });
    }
  }
  return { ...reader, following: 1 };
}

const reader = values.seeded ? await signIn(values.viewer) : await writeWorks();

/** One request's milliseconds. */
async function once(url: string): Promise<number> {
  const start = process.hrtime.bigint();
  const response = await app.inject({ method: 'GET', url, headers: as(reader) });
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * A round: REQUESTS requests to each route, alternating one by one (so that both meet the same load on a busy
 * host), and each route's mean milliseconds per request.
 */
async function round(): Promise<[number, number]> {
  let own = 0;
  let theirs = 0;
  for (let i = 0; i < REQUESTS; i += 1) {
    own += await once('/api/feed?limit=20');
    theirs += await once('/api/v1/timelines/home?limit=20');
  }
  return [own / REQUESTS, theirs / REQUESTS];
}

// Warm both (caches, plans) before measuring.
await round();
const ours: number[] = [];
const mastodon: number[] = [];
const ratios: number[] = [];
for (let i = 0; i < ROUNDS; i += 1) {
  const [own, theirs] = await round();
  ours.push(own);
  mastodon.push(theirs);
  ratios.push(own / theirs);
  console.log(
    `round ${i + 1}: ${own.toFixed(2)} and ${theirs.toFixed(2)} ms/request, ratio ${(own / theirs).toFixed(2)}`,
  );
}
const what = values.seeded
  ? `the seeded database (viewer ${values.viewer}, following ${reader.following ?? '?'})`
  : `${POSTS} works`;
console.log(`${database.kind}, ${what}, ${ROUNDS} rounds of ${REQUESTS} requests per route, a page of 20`);
console.log(`GET /api/feed                  median ${median(ours).toFixed(2)} ms/request`);
console.log(`GET /api/v1/timelines/home     median ${median(mastodon).toFixed(2)} ms/request`);
console.log(`Mastodon Home speed / our Home speed: median ${median(ratios).toFixed(2)} (≥ 0.8 asked)`);
await app.close();
await database.close();
await rm(dataDir, { recursive: true, force: true });
