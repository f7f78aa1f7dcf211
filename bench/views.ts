/**
 * `npm run bench:views`: what counting views (issue 42, modules/insights) costs. On PGlite (in memory), and on
 * PostgreSQL too when DATABASE_URL names a server (a fresh database is made there and dropped):
 *
 * 1. a work's page with counting on × off, side by side: each visit is the page's request (GET /api/posts/{id}) and
 *    its beacon (POST /api/views), every visit from a new visitor (a user agent of its own, so each view is new for
 *    the day: the most work counting can do), loaded by autocannon in a child process for DURATION seconds per run,
 *    off, on, off, on (ROUNDS times: this machine's speed drifts); the ratio is on's mean req/s over off's. Off, the
 *    beacon answers 204 at once, as with counting turned off; on, it is told apart, gathered and written every 10 s.
 * 2. a day of VIEWS views (1,000,000 by default) over WORKS works (20,000), with the sources and sites spread as on
 *    a real site (a few popular works, most views from Home and Explore, some from other sites), through the
 *    counter's own path (uniqueness, gathering, one upsert): the rows it writes and the table's size on disk
 *    (pg_total_relation_size, indexes included), and how long the batch's one statement takes.
 *
 * Env: DURATION (default 10), ROUNDS (default 2), VIEWS (0: the side-by-side only), WORKS, DATABASE_URL.
 */
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import type { ViewSource } from '@share-arts/contract';
import { queryRows } from '../apps/server/src/db/client.js';
import { createTestApp, signUp, type TestContext } from '../apps/server/src/test/helpers.js';

const DURATION = Number(process.env.DURATION ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const VIEWS = Number(process.env.VIEWS ?? 1_000_000);
const WORKS = Number(process.env.WORKS ?? 20_000);

/** The load generator, in its own process: a visit is the page and its beacon, each visit a new visitor. */
async function generateLoad(base: string, postId: string): Promise<void> {
  let visitor = 0;
  const result = await autocannon({
    url: base,
    connections: 20,
    duration: DURATION,
    requests: [
      { method: 'GET', path: `/api/posts/${postId}` },
      {
        method: 'POST',
        path: '/api/views',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ postId, source: 'home' }),
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'user-agent': `Mozilla/5.0 (bench visitor ${(visitor += 1)})` },
        }),
      },
    ],
  });
  process.stdout.write(
    JSON.stringify({ rps: result.requests.average, non2xx: result.non2xx, errors: result.errors }) + '\n',
  );
}

async function pageRate(base: string, postId: string): Promise<number> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', import.meta.filename],
    { env: { ...process.env, VIEWS_LOAD: JSON.stringify({ base, postId }) }, maxBuffer: 16 * 2 ** 20 },
  );
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { rps: number; non2xx: number; errors: number };
  if (result.non2xx > 0) throw new Error(`${result.non2xx} answers other than 2xx`);
  if (result.errors > 0) console.log(`  (${result.errors} errors)`);
  return result.rps;
}

const SOURCES: [ViewSource, number][] = [
  ['home', 35],
  ['explore', 15],
  ['tag', 10],
  ['profile', 10],
  ['post', 8],
  ['direct', 7],
  ['search', 5],
  ['external', 5],
  ['notifications', 3],
  ['series', 2],
];
const SOURCE_TOTAL = SOURCES.reduce((sum, [, weight]) => sum + weight, 0);

/** A deterministic random number generator (mulberry32), so every run simulates the same day. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function simulateDay(ctx: TestContext, label: string) {
  const db = ctx.database.db;
  const artist = await signUp(ctx.app);
  const ids = (
    await queryRows<{ id: string }>(
      db,
      sql`insert into posts (author_id, content)
          select ${artist.user._id}::uuid, 'Bench work ' || n from generate_series(1, ${WORKS}) n returning id`,
    )
  ).map((row) => row.id);
  const next = random(42);
  const counter = ctx.app.viewCounter;
  const started = performance.now();
  for (let n = 0; n < VIEWS; n++) {
    // A few works draw most views (n^3 skews towards the first).
    const work = ids[Math.floor(next() ** 3 * ids.length)]!;
    let pick = next() * SOURCE_TOTAL;
    const source = SOURCES.find(([, weight]) => (pick -= weight) < 0)?.[0] ?? 'home';
    await counter.record({
      kind: 'post',
      subject: work,
      viewerId: null,
      address: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
      userAgent: 'Mozilla/5.0 (bench)',
      source,
      host: source === 'external' ? `site${Math.floor(next() ** 2 * 50)}.example` : '',
    });
  }
  const gathered = performance.now();
  await counter.flush();
  const written = performance.now();
  const [size] = await queryRows<{ rows: number; bytes: string; views: number }>(
    db,
    sql`select count(*)::int as rows, sum(v.views)::int as views, pg_total_relation_size('post_view_days')::text as bytes
        from post_view_days v join posts p on p.id = v.post_id where p.author_id = ${artist.user._id}::uuid`,
  );
  const bytes = Number(size!.bytes);
  console.log(
    `${label}: a day of ${VIEWS.toLocaleString('en')} views over ${WORKS.toLocaleString('en')} works: ` +
      `${size!.views.toLocaleString('en')} counted, ` +
      `${size!.rows.toLocaleString('en')} rows, ${(bytes / 2 ** 20).toFixed(1)} MiB with the primary key ` +
      `(${Math.round(bytes / size!.rows)} bytes a row; 90 days ≈ ${((bytes * 90) / 2 ** 30).toFixed(2)} GiB); ` +
      `gathered in ${((gathered - started) / 1000).toFixed(1)} s (${(((gathered - started) * 1000) / VIEWS).toFixed(1)} µs a view), ` +
      `the batch's one upsert took ${((written - gathered) / 1000).toFixed(2)} s`,
  );
}

async function measure(label: string) {
  const ctx = await createTestApp({ seed: true, config: { logLevel: 'error' } });
  try {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const [post] = await queryRows<{ id: string }>(
      ctx.database.db,
      sql`select id from posts order by created_at limit 1`,
    );
    const rates = { off: [] as number[], on: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of ['off', 'on'] as const) {
        ctx.app.viewCounter.enabled = mode === 'on';
        rates[mode].push(await pageRate(base, post!.id));
      }
    }
    ctx.app.viewCounter.enabled = true;
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const [off, on] = [mean(rates.off), mean(rates.on)];
    console.log(
      `${label}: a work's page and its beacon, ${DURATION} s × ${ROUNDS} rounds each: counting off ${Math.round(off)} req/s ` +
        `(${rates.off.map(Math.round).join(', ')}), on ${Math.round(on)} req/s (${rates.on.map(Math.round).join(', ')}): ` +
        `${(on / off).toFixed(2)}× (target ≥ 0.95×)`,
    );
    // VIEWS=0: the side-by-side only.
    if (VIEWS > 0) await simulateDay(ctx, label);
  } finally {
    await ctx.close();
  }
}

if (process.env.VIEWS_LOAD) {
  const { base, postId } = JSON.parse(process.env.VIEWS_LOAD) as { base: string; postId: string };
  await generateLoad(base, postId);
} else {
  const url = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  await measure('PGlite');
  if (url) {
    process.env.DATABASE_URL = url;
    await measure('PostgreSQL');
  }
}
