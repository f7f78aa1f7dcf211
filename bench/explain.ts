/**
 * `npm run bench:explain -- --database <url>`: runs the real service code of every hot read route, and
 * of the hot writes in transactions rolled back, against a seeded database, captures the SQL it sends,
 * and prints EXPLAIN ANALYZE for each query, flagging sequential scans of the big tables. `--write` puts
 * the summary in docs/performance.md.
 */
import { hash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../apps/server/src/db/client.js';
import * as schema from '../apps/server/src/db/schema.js';
import { encodeCursor } from '../apps/server/src/lib/cursor.js';
import { createMediaService } from '../apps/server/src/modules/media/index.js';
import { createPostsService, createPostCache, type SearchHit } from '../apps/server/src/modules/posts/index.js';
import { createSearchCache } from '../apps/server/src/lib/search-cache.js';
import { createUsersService, type PeopleMatch } from '../apps/server/src/modules/users/index.js';
import { createCommentsService } from '../apps/server/src/modules/comments/index.js';
import { createRelationsCache } from '../apps/server/src/modules/safety/index.js';

const { values } = parseArgs({ options: { database: { type: 'string' }, write: { type: 'boolean', default: false } } });
const url = values.database ?? process.env.DATABASE_URL;
if (!url) throw new Error('Pass --database postgres://… (a database filled by npm run bench:seed).');

const captured: { query: string; params: unknown[] }[] = [];
const pool = new pg.Pool({ connectionString: url, max: 2 });
const logger = { logQuery: (query: string, params: unknown[]) => captured.push({ query, params }) };
// Caches that hear no events and keep nothing: every route reads cold, so all of its queries are explained.
const deaf = { subscribe() {}, close: async () => {} };
function servicesOf(db: Db) {
  const media = createMediaService({ db, mediaDir: os.tmpdir() });
  const cache = createPostCache({ bus: deaf, max: 1 });
  return {
    posts: createPostsService({
      db,
      media,
      cache,
      searches: createSearchCache<SearchHit, never>({ bus: deaf, changes: () => false, max: 1, ttlMs: 1 }),
      relations: createRelationsCache({ db, bus: deaf, maxSize: 1 }),
    }),
    users: createUsersService({
      db,
      media,
      searches: createSearchCache<PeopleMatch, never>({ bus: deaf, changes: () => false, max: 1, ttlMs: 1 }),
    }),
    comments: createCommentsService({ db, cache }),
  };
}
const { posts, users, comments } = servicesOf(drizzle(pool, { schema, logger }) as unknown as Db);

const uuidOf = (text: string) => {
  const hex = hash('md5', text, 'hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
const viewer = uuidOf('bench-user-1');
const {
  rows: [deep],
} = await pool.query<{ created_at: Date; id: string }>(
  'select created_at, id from posts order by created_at desc, id desc offset 20000 limit 1',
);
const {
  rows: [hot],
} = await pool.query<{ id: string }>('select id from posts order by comment_count desc limit 1');

/** A post bench_1 has neither liked nor saved, and someone bench_1 does not follow, for the write routes. */
const {
  rows: [fresh],
} = await pool.query<{ post: string; person: string }>(
  `select (select id from posts p where not exists (select from post_reactions where post_id = p.id and user_id = $1)
             and not exists (select from bookmarks where post_id = p.id and user_id = $1)
           order by like_count desc limit 1) as post,
          (select id from users u where id <> $1 and not exists (
             select from follows where follower_id = $1 and followee_id = u.id) order by follower_count desc limit 1) as person`,
  [viewer],
);
type Services = ReturnType<typeof servicesOf>;
/** Writes, each run in a transaction that is rolled back: once to capture its SQL, once to explain it. */
const writeRoutes: [string, (services: Services) => Promise<unknown>][] = [
  ['POST /api/posts/like/{id}', (s) => s.posts.react(viewer, fresh!.post, 'like')],
  ['POST /api/users/follow/{id}', (s) => s.users.follow(viewer, fresh!.person)],
  ['POST /api/users/bookmark/{id}', (s) => s.posts.bookmark(viewer, fresh!.post, true)],
  ['POST /api/posts', (s) => s.posts.create(viewer, { content: 'An explained post #bench' })],
];

const routes: [string, () => Promise<unknown>][] = [
  ['GET /api/posts', () => posts.list({}, viewer)],
  ['GET /api/posts (page ~1000)', () => posts.list({ cursor: encodeCursor([deep!.created_at, deep!.id]) }, viewer)],
  ['GET /api/posts?sort=trending', () => posts.list({ sort: 'trending' }, viewer)],
  ['GET /api/feed (following 500)', () => posts.feed({}, viewer)],
  ['GET /api/posts/{id}', () => posts.getPost(hot!.id, viewer)],
  ['GET /api/posts/user/{username}', () => posts.byUsername('bench_2', {}, viewer)],
  ['GET /api/posts/liked', () => posts.liked({}, viewer)],
  ['GET /api/users/bookmark', () => posts.bookmarked({}, viewer)],
  ['GET /api/comments/{postId}', () => comments.list(hot!.id, {}, viewer)],
  ['GET /api/search (posts)', () => posts.search('light', {}, viewer)],
  ['GET /api/search (#tag)', () => posts.search('#ink', {}, viewer)],
  ['GET /api/search (users)', () => users.search('okafo', {}, viewer)],
  ['GET /api/search (users, a typo)', () => users.search('okafr', {}, viewer)],
  ['GET /api/users/suggestions', () => users.suggestions({}, viewer)],
  ['GET /api/users (newest first)', () => users.list({}, viewer)],
  ['GET /api/users/by-username/{username}', () => users.getByUsername('bench_2', viewer)],
];

const BIG_TABLES = ['posts', 'users', 'post_reactions', 'follows', 'comments', 'comment_votes', 'bookmarks', 'media'];
const summary: string[] = [
  '| route | queries | slowest query (ms) | sequential scans of big tables |',
  '|---|---:|---:|---|',
];
async function explain(route: string, client: pg.PoolClient | pg.Pool, queries: typeof captured) {
  let slowest = 0;
  const seqScans = new Set<string>();
  console.log(`\n=== ${route}: ${queries.length} quer${queries.length === 1 ? 'y' : 'ies'}`);
  for (const { query, params } of queries) {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${query}`, params);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    const time = Number(/Execution Time: ([\d.]+)/.exec(plan)?.[1] ?? 0);
    slowest = Math.max(slowest, time);
    // A scan under a condition that was false ("never executed") read nothing.
    for (const match of plan.matchAll(/Seq Scan on (\w+)(?![^\n]*never executed)/g))
      if (BIG_TABLES.includes(match[1]!)) seqScans.add(match[1]!);
    console.log(plan);
  }
  summary.push(`| ${route} | ${queries.length} | ${slowest.toFixed(2)} | ${[...seqScans].join(', ') || 'none'} |`);
}

for (const [route, call] of routes) {
  captured.length = 0;
  await call();
  await explain(route, pool, [...captured]);
}
for (const [route, call] of writeRoutes) {
  const client = await pool.connect();
  try {
    captured.length = 0;
    await client.query('begin');
    await call(servicesOf(drizzle(client, { schema, logger }) as unknown as Db));
    await client.query('rollback');
    // The transaction's own statements (begin, savepoint, commit) are not explained.
    const queries = captured.filter(({ query }) => /^\s*(with|select|insert|update|delete)\b/i.test(query));
    await client.query('begin');
    await explain(route, client, queries);
  } finally {
    await client.query('rollback');
    client.release();
  }
}
await pool.end();
const table = summary.join('\n');
console.log(`\n${table}`);
if (values.write) {
  const file = 'docs/performance.md';
  const doc = await readFile(file, 'utf8');
  const [start, end] = ['<!-- bench:explain -->', '<!-- /bench:explain -->'];
  if (!doc.includes(start)) throw new Error(`${file} has no ${start} … ${end} section.`);
  await writeFile(file, `${doc.slice(0, doc.indexOf(start) + start.length)}\n${table}\n${doc.slice(doc.indexOf(end))}`);
}
