/**
 * `npm run bench:jobs`: the background job queue (issue 37). On PGlite (in memory), and on PostgreSQL too when
 * DATABASE_URL names a server (a fresh database is made there and dropped):
 *
 * 1. jobs per second: JOBS password-reset mail jobs for logins that match no account (each job looks the login
 *    up, as a real one does, and sends nothing) are queued in one fan-out, then drained by the app's own worker;
 *    the time from the first queued to the last done.
 * 2. what a busy queue costs the pages: GET /api/posts (the sample data's first page, signed out) loaded by
 *    autocannon in a child process for DURATION seconds, alone, then while JOBS such jobs drain beside it, then
 *    alone again; the ratio is its req/s while draining over the mean of the two runs alone.
 *
 * The server is this process (the app as the tests build it, with the sample data), so the load generator runs
 * elsewhere. Env: JOBS (default 10000), DURATION (default 10), DATABASE_URL.
 */
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { createTestApp, type TestContext } from '../apps/server/src/test/helpers.js';

const JOBS = Number(process.env.JOBS ?? 10_000);
const DURATION = Number(process.env.DURATION ?? 10);
const KIND = 'mail.password-reset';

const payloads = (round: string) => Array.from({ length: JOBS }, (_, n) => ({ login: `nobody_${round}_${n}` }));

async function waiting(ctx: TestContext): Promise<number> {
  const counts = (await ctx.app.jobs.counts()).find((row) => row.kind === KIND);
  return (counts?.queued ?? 0) + (counts?.running ?? 0);
}

async function drained(ctx: TestContext): Promise<void> {
  while ((await waiting(ctx)) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** GET /api/posts' req/s over DURATION seconds, from autocannon in a child process. */
async function pageRate(base: string): Promise<number> {
  const { stdout } = await promisify(execFile)(
    'npx',
    ['autocannon', '--json', '--connections', '20', '--duration', String(DURATION), `${base}/api/posts`],
    { maxBuffer: 64 * 2 ** 20 },
  );
  const result = JSON.parse(stdout) as {
    requests: { average: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  if (result.non2xx > 0) throw new Error(`GET /api/posts: ${result.non2xx} answers other than 2xx`);
  // A request past autocannon's 10 s (a host too loaded to measure) is said, not hidden.
  if (result.errors > 0) console.log(`  (${result.errors} errors, ${result.timeouts} of them timeouts)`);
  return result.requests.average;
}

/** The app on the database createTestApp picks: PGlite, or a fresh database on DATABASE_URL's server. */
async function measure(label: string) {
  const ctx = await createTestApp({ seed: true, config: { logLevel: 'error' } });
  try {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;

    // 1. Throughput, with nothing else running.
    const queuedAt = performance.now();
    await ctx.app.jobs.sendMany(KIND, payloads('alone'));
    const queuedIn = (performance.now() - queuedAt) / 1000;
    await drained(ctx);
    const drainedIn = (performance.now() - queuedAt) / 1000;

    // 2. The page alone, while a queue drains, alone again.
    const before = await pageRate(base);
    await ctx.app.jobs.sendMany(KIND, payloads('busy'));
    const busy = await pageRate(base);
    const left = await waiting(ctx);
    await drained(ctx);
    const after = await pageRate(base);

    console.log(
      `${label}: ${JOBS} jobs queued in ${queuedIn.toFixed(1)} s (${Math.round(JOBS / queuedIn)} a second), ` +
        `all done in ${drainedIn.toFixed(1)} s: ${Math.round(JOBS / drainedIn)} jobs a second\n` +
        `${label}: GET /api/posts ${Math.round(before)} req/s alone, ${Math.round(busy)} while jobs drained ` +
        `(${JOBS - left} of ${JOBS} done meanwhile), ${Math.round(after)} alone again: ` +
        `${(busy / ((before + after) / 2)).toFixed(2)}× with the busy queue`,
    );
  } finally {
    await ctx.close();
  }
}

const url = process.env.DATABASE_URL;
delete process.env.DATABASE_URL;
await measure('PGlite');
if (url) {
  process.env.DATABASE_URL = url;
  await measure('PostgreSQL');
}
