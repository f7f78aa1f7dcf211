/**
 * `npx tsx --conditions=source bench/viewer-state-memory.ts --database <url> [--users 10000]`: the memory the
 * viewer states of issue 26 take (posts/viewer-state.ts: each signed-in viewer's reactions, bookmarks, follows
 * and username, kept by every server process for the people reading). Reads the state of `--users` people of a
 * seeded database into one cache, as that many active viewers would, and prints the heap before and after
 * (the JS heap and the ArrayBuffers outside it, after a full garbage collection each time), per viewer and per id remembered. For comparison it then
 * builds the same ids as Sets of strings, the obvious layout, and measures those too. Last, it reads the same
 * people's Home timelines (posts/home-timeline.ts: their newest Home posts' ids and times) and measures those.
 */
import { parseArgs } from 'node:util';
import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Db } from '../apps/server/src/db/client.js';
import * as schema from '../apps/server/src/db/schema.js';
import { createViewerStateCache, VIEWER_STATE_MAX_IDS } from '../apps/server/src/modules/posts/viewer-state.js';
import { selectViewerState } from '../apps/server/src/modules/posts/posts.sql.js';
import {
  HOME_TIMELINE_SIZE,
  PUBLISHED_LOG_SIZE,
  PublishedLog,
} from '../apps/server/src/modules/posts/home-timeline.js';

const { values } = parseArgs({
  options: { database: { type: 'string' }, users: { type: 'string', default: '10000' } },
});
const url = values.database ?? process.env.DATABASE_URL;
if (!url) throw new Error('Pass --database postgres://… (a database filled by npm run bench:seed).');
const USERS = Number(values.users);
if (!Number.isInteger(USERS) || USERS < 1) throw new Error('--users must be a whole number, 1 or more.');

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** The JS heap plus the ArrayBuffers' memory outside it (where each IdSet's words live), after a full collection. */
const heapUsed = () => {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

const pool = new pg.Pool({ connectionString: url, max: 4 });
const db = drizzle(pool, { schema }) as unknown as Db;
// Only this process's cache: no events to hear.
const deaf = { subscribe() {}, close: async () => {} };

// The same people every run: the first USERS of the users table in the order of their ids' hashes.
const { rows } = await pool.query<{ id: string }>('select id from users order by md5(id::text) limit $1', [USERS]);
const ids = rows.map((row) => row.id);

const cache = createViewerStateCache({ db, bus: deaf, maxIds: 1e9 });
const before = heapUsed();
const started = performance.now();
for (let i = 0; i < ids.length; i += 8) await Promise.all(ids.slice(i, i + 8).map((id) => cache.of(id)));
const took = performance.now() - started;
const after = heapUsed();
const { viewers, ids: held } = cache.stats();

console.log(
  `${viewers} viewers remembered, ${held} ids in all (${(held / viewers).toFixed(0)} per viewer), read in ${(took / 1000).toFixed(1)} s (${(took / viewers).toFixed(2)} ms each, 8 at a time)`,
);
console.log(
  `heap and ArrayBuffers: ${mib(before)} before, ${mib(after)} after: ${mib(after - before)} for ${viewers} viewers, ${((after - before) / viewers / 1024).toFixed(2)} KiB a viewer, ${((after - before) / held).toFixed(1)} bytes an id`,
);
console.log(`rss: ${mib(process.memoryUsage().rss)}`);

// The obvious layout for comparison: a Set of id strings per kind, for the same people.
const sets: Set<string>[][] = [];
const beforeSets = heapUsed();
for (let i = 0; i < ids.length; i += 8) {
  const states = await Promise.all(
    ids.slice(i, i + 8).map((id) => selectViewerState(db, id, VIEWER_STATE_MAX_IDS + 1)),
  );
  for (const state of states) {
    const byKind = new Map<string, Set<string>>();
    for (const row of state)
      if (row.kind !== 'username')
        (byKind.get(row.kind) ?? byKind.set(row.kind, new Set()).get(row.kind)!).add(row.value);
    sets.push([...byKind.values()]);
  }
}
const afterSets = heapUsed();
console.log(
  `the same as Sets of strings: ${mib(afterSets - beforeSets)}, ${((afterSets - beforeSets) / held).toFixed(1)} bytes an id`,
);
// Kept alive until measured.
if (sets.length === 0 || cache.stats().viewers === 0) console.log('nothing read');
sets.length = 0;

// Each one's Home timeline as well, as their first look at Home reads it.
const beforeHomes = heapUsed();
const homesStarted = performance.now();
for (let i = 0; i < ids.length; i += 8) {
  await Promise.all(
    ids.slice(i, i + 8).map(async (id) => {
      const state = await cache.of(id);
      if (state) await cache.home(id, state);
    }),
  );
}
const homesTook = performance.now() - homesStarted;
const afterHomes = heapUsed();
const { homes } = cache.stats();
console.log(
  `${homes} Home timelines of up to ${HOME_TIMELINE_SIZE} posts, read in ${(homesTook / 1000).toFixed(1)} s (${(homesTook / homes).toFixed(2)} ms each, 8 at a time): ${mib(afterHomes - beforeHomes)}, ${((afterHomes - beforeHomes) / homes / 1024).toFixed(2)} KiB a viewer`,
);

// The log of posts published lately that every process keeps for the timelines, at its fullest (twice its size,
// when it drops the older half), each post as its event brings it: ids, an author, a time and two tags.
const beforeLog = heapUsed();
const log = new PublishedLog();
for (let i = 0; i < 2 * PUBLISHED_LOG_SIZE; i += 1) {
  const event = JSON.parse(
    JSON.stringify({ postId: crypto.randomUUID(), authorId: crypto.randomUUID(), tags: ['ink', `study${i % 50}`] }),
  ) as { postId: string; authorId: string; tags: string[] };
  log.add({ id: event.postId, authorId: event.authorId, time: Date.now(), tags: event.tags });
}
const afterLog = heapUsed();
console.log(`the published log at its fullest (${2 * PUBLISHED_LOG_SIZE} posts): ${mib(afterLog - beforeLog)}`);
if (log.end === 0) console.log('nothing logged');
await pool.end();
