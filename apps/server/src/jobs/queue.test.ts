import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../db/client.js';
import { JOB_MESSAGES } from '@share-arts/contract';
import { createTestApp, eventually, signUp, type TestContext } from '../test/helpers.js';
import { createJobQueue, type JobQueue } from './queue.js';

// The job queue (issue 37) on the test's database (PGlite, or PostgreSQL with DATABASE_URL): each queue
// made here is what one server process runs, with kinds of its own and a table that records every run.
let ctx: TestContext;
const queues: JobQueue[] = [];

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.database.db.execute(
    sql`create table job_test_runs (seq int generated always as identity, job_id text not null, kind text not null, worker int not null, n bigint not null)`,
  );
});
afterAll(async () => {
  for (const queue of queues) await queue.stop(1);
  await ctx?.close();
});

/** A queue of this test's own: `define` its kinds, then it starts. */
async function queue(define: (jobs: JobQueue) => void): Promise<JobQueue> {
  const jobs = createJobQueue(ctx.database, {
    pollingIntervalSeconds: 0.5,
    cronIntervalSeconds: 1,
    onError: (e) => console.error('QERR', e),
  });
  define(jobs);
  jobs.start();
  await jobs.whenStarted(50_000);
  queues.push(jobs);
  return jobs;
}

const record = (jobId: string, kind: string, worker: number, n = 0) =>
  ctx.database.db.execute(
    sql`insert into job_test_runs (job_id, kind, worker, n) values (${jobId}, ${kind}, ${worker}, ${n})`,
  );
const runsOf = (kind: string) =>
  queryRows<{ job_id: string; worker: number; n: number }>(
    ctx.database.db,
    sql`select job_id, worker, n::float8 as n from job_test_runs where kind = ${kind}`,
  );

describe('the job queue', () => {
  it('runs each of 1,000 jobs exactly once across two processes', async () => {
    const kind = 'test.thousand';
    const [first, second] = await Promise.all(
      [1, 2].map((worker) =>
        queue((jobs) =>
          jobs.define<{ n: number }>(kind, async ({ n }, job) => void (await record(job.id, kind, worker, n)), {
            batchSize: 10,
          }),
        ),
      ),
    );
    // One by one from the first process, and as a fan-out from the second.
    const sent = await Promise.all(Array.from({ length: 500 }, (_, n) => first!.send(kind, { n: n * 2 })));
    expect(new Set(sent).size).toBe(500);
    await second!.sendMany(
      kind,
      Array.from({ length: 500 }, (_, n) => ({ n: n * 2 + 1 })),
    );
    await eventually(async () => expect((await runsOf(kind)).length).toBeGreaterThanOrEqual(1000), 120_000);
    const runs = await runsOf(kind);
    expect(runs).toHaveLength(1000);
    expect(new Set(runs.map((run) => run.job_id)).size).toBe(1000);
    expect(new Set(runs.map((run) => run.n)).size).toBe(1000);
    // Both processes took a share.
    expect(runs.filter((run) => run.worker === 1).length).toBeGreaterThan(0);
    expect(runs.filter((run) => run.worker === 2).length).toBeGreaterThan(0);
  }, 180_000);

  it('runs the jobs of a kind in the order they were queued', async () => {
    const kind = 'test.ordered';
    const jobs = await queue((q) =>
      q.define<{ n: number }>(kind, async ({ n }, job) => void (await record(job.id, kind, 1, n)), { batchSize: 5 }),
    );
    // One by one, as requests queue them (a batch comes back from the database in no particular order).
    for (let n = 0; n < 20; n += 1) await jobs.send(kind, { n });
    await eventually(async () => expect(await runsOf(kind)).toHaveLength(20), 60_000);
    const order = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select n::int as n from job_test_runs where kind = ${kind} order by seq`,
    );
    expect(order.map((run) => run.n)).toEqual(Array.from({ length: 20 }, (_, n) => n));
  }, 90_000);

  it("runs a batch's jobs of different keys at once, and those of one key in the order queued", async () => {
    const kind = 'test.lanes';
    const events: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let otherLaneStarted = () => {};
    const otherLane = new Promise<void>((resolve) => (otherLaneStarted = resolve));
    const jobs = await queue((q) =>
      q.define<{ lane: string; n: number }>(
        kind,
        async ({ lane, n }) => {
          events.push(`${lane}${n} starts`);
          if (lane === 'hold') await held;
          if (lane === 'b') otherLaneStarted();
          // The first of lane a waits for lane b to start (bounded, so that a queue running one job after the
          // other fails the assertions below instead of hanging).
          if (lane === 'a' && n === 0) await Promise.race([otherLane, new Promise((r) => setTimeout(r, 10_000))]);
          events.push(`${lane}${n} ends`);
        },
        { batchSize: 10, keyOf: ({ lane }) => lane },
      ),
    );
    // The first job holds the worker while the six others are queued one by one: they are claimed as one batch.
    await jobs.send(kind, { lane: 'hold', n: 0 });
    await eventually(async () => expect(events).toContain('hold0 starts'), 30_000);
    for (let n = 0; n < 3; n += 1) {
      await jobs.send(kind, { lane: 'a', n });
      await jobs.send(kind, { lane: 'b', n });
    }
    release();
    await eventually(async () => expect(events.filter((event) => event.endsWith('ends'))).toHaveLength(7), 60_000);
    // Lane b started while lane a's first job ran…
    expect(events.indexOf('b0 starts')).toBeLessThan(events.indexOf('a0 ends'));
    // …and each lane ran in the order queued, one job after the other.
    for (const lane of ['a', 'b']) {
      const own = events.filter((event) => event.startsWith(lane));
      expect(own).toEqual([0, 1, 2].flatMap((n) => [`${lane}${n} starts`, `${lane}${n} ends`]));
    }
  }, 90_000);

  it('runs a periodic job once in its period, however many processes define it', async () => {
    const kind = 'test.every-minute';
    // Two processes, each looking every second whether the minute's job is due.
    for (const worker of [1, 2])
      await queue((q) =>
        q.define(kind, async (_payload, job) => void (await record(job.id, kind, worker, Date.now())), {
          every: '* * * * *',
        }),
      );
    await eventually(async () => expect((await runsOf(kind)).length).toBeGreaterThanOrEqual(1), 90_000);
    // Both processes looked again several times since: one run a minute. (On a loaded host the first run can
    // come late in its minute, so the next minute's may already have run: runs are counted by their minute.)
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const runs = await runsOf(kind);
    const minutes = new Set(runs.map((run) => Math.floor(run.n / 60_000)));
    expect(runs.length).toBeGreaterThanOrEqual(1);
    expect(runs).toHaveLength(minutes.size);
  }, 120_000);

  it('retries a failing job with growing delays, then keeps it failed for an admin, who can retry it', async () => {
    const kind = 'test.failing';
    let succeed = false;
    const jobs = await queue((q) =>
      q.define(
        kind,
        async (_payload, job) => {
          await record(job.id, kind, 1, Date.now());
          if (!succeed) throw new Error(`the remote server refused (try ${job.attempt + 1})`);
        },
        { retryLimit: 2, retryDelaySeconds: 1 },
      ),
    );
    const id = await jobs.send(kind, {});
    await eventually(async () => expect((await jobs.failed(50)).map((job) => job.id)).toContain(id), 60_000);
    const tries = (await runsOf(kind)).map((run) => run.n).sort((a, b) => a - b);
    expect(tries).toHaveLength(3);
    // Exponential back-off: the n-th retry waits 1 s × 2^(n-1) at least (and up to twice that, by jitter).
    expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(950);
    expect(tries[2]! - tries[1]!).toBeGreaterThanOrEqual(1950);
    // An admin sees it in GET /api/admin/jobs, with its kind's counts, and retries it.
    const admin = await signUp(ctx.app);
    await ctx.database.db.execute(sql`update users set role = 'admin' where id = ${admin.user._id}::uuid`);
    const asAdmin = { authorization: `Bearer ${admin.token}` };
    const overview = await ctx.app.inject({ method: 'GET', url: '/api/admin/jobs', headers: asAdmin });
    expect(overview.statusCode).toBe(200);
    expect(overview.json().failed.find((job: { id: string }) => job.id === id)).toMatchObject({
      kind,
      attempts: 3,
      error: 'the remote server refused (try 3)',
    });
    expect(overview.json().kinds.find((counts: { kind: string }) => counts.kind === kind)).toEqual({
      kind,
      queued: 0,
      running: 0,
      failed: 1,
      oldestWaitingSeconds: 0,
    });
    // The mail kinds of the app are listed too, with nothing failed.
    expect(overview.json().kinds.map((counts: { kind: string }) => counts.kind)).toContain('mail.password-reset');

    succeed = true;
    const retry = () => ctx.app.inject({ method: 'POST', url: `/api/admin/jobs/${id}/retry`, headers: asAdmin });
    const retried = await retry();
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ message: JOB_MESSAGES.retried });
    // Queued already: not failed any more.
    expect((await retry()).json()).toEqual({ errors: [JOB_MESSAGES.notFailed] });
    await eventually(async () => expect(await runsOf(kind)).toHaveLength(4), 30_000);
    await eventually(async () => expect((await jobs.failed(50)).map((job) => job.id)).not.toContain(id));
  }, 120_000);

  it('skips what a job already did when it runs again after its completion was lost', async () => {
    const kind = 'test.once';
    let lose = true;
    const jobs = await queue((q) =>
      q.define(
        kind,
        async (_payload, job) => {
          await job.once('the mail', () => record(job.id, kind, 1).then(() => {}));
          // The work is done, and the completion is lost (here: the try fails after it).
          if (lose) {
            lose = false;
            throw new Error('the process died before the completion was recorded');
          }
          await job.once('the second mail', () => record(job.id, `${kind}.second`, 1).then(() => {}));
        },
        { retryDelaySeconds: 1 },
      ),
    );
    const id = await jobs.send(kind, {});
    await eventually(async () => expect(await runsOf(`${kind}.second`)).toHaveLength(1), 30_000);
    expect((await runsOf(kind)).map((run) => run.job_id)).toEqual([id]);
  }, 60_000);
});
