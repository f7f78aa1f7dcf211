/**
 * `npm run bench:push`: Web Push (issue 44), 10,000 people pushed for one fan-out through the jobs queue.
 *
 * The fan-out: 10,000 notifications for 10,000 different people written in one statement, each with its
 * `notification-added` event (the shape of every notification the app writes, through the real event bus). Share
 * Arts has no notification today that reaches 10,000 people at once (new works do not notify followers), so this
 * measures 10,000 notifications' pushes arriving together, which is what such an event would cost. Each person has
 * one subscribed device (no open tab); the push service is a local HTTP server this script runs, which takes each
 * push (encrypted aes128gcm, VAPID-signed) and answers 201.
 *
 * What is timed, per run: from the statement's commit to the 10,000th push received, through everything the app
 * does: each event marks its person's push group and queues its job (`push.group`, after the group's window,
 * PUSH_GROUP_SECONDS, 10 s by default and here), the jobs gather and word the push, encrypt it for the device and
 * POST it. RUNS runs (default 3), the median quoted. On PGlite (in memory) by default; on PostgreSQL when
 * DATABASE_URL names a server (a fresh database is made there and dropped). Run on 2 cores with
 * `taskset -c 0,1 npm run bench:push`.
 *
 * Env: PEOPLE (default 10000), RUNS (default 3), WINDOW (seconds, default 10), DATABASE_URL.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.js';
import { publishSql } from '../apps/server/src/events/events.js';
import { createTestApp } from '../apps/server/src/test/helpers.js';

const PEOPLE = Number(process.env.PEOPLE ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 3);
const WINDOW = Number(process.env.WINDOW ?? 10);

/**
 * The local push service, in a child process of its own (as a real push service is elsewhere: its HTTP work is not
 * the app's): counts the pushes it takes, each of which must carry a VAPID header and an aes128gcm body, and
 * answers 201. It reports its counts to this process.
 */
const SERVICE = `
const http = require('node:http');
let received = 0, malformed = 0;
const server = http.createServer((request, response) => {
  let size = 0;
  request.on('data', (chunk) => (size += chunk.length));
  request.on('end', () => {
    const signed = /^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=[\\w-]{87}$/.test(String(request.headers.authorization));
    if (!signed || request.headers['content-encoding'] !== 'aes128gcm' || size < 100) malformed += 1;
    received += 1;
    response.writeHead(201).end();
    if (received % 100 === 0) process.send({ received, malformed });
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
setInterval(() => process.send({ received, malformed }), 200).unref();
process.on('disconnect', () => process.exit(0));
`;

function pushService() {
  let received = 0;
  let malformed = 0;
  let onCount: (() => void) | undefined;
  const child = spawn(process.execPath, ['-e', SERVICE], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const started = new Promise<string>((resolve) => {
    child.on('message', (message: { port?: number; received?: number; malformed?: number }) => {
      if (message.port) resolve(`http://127.0.0.1:${message.port}`);
      if (message.received !== undefined) {
        received = Math.max(received, message.received);
        malformed = Math.max(malformed, message.malformed ?? 0);
        onCount?.();
      }
    });
  });
  return {
    start: () => started,
    get received() {
      return received;
    },
    get malformed() {
      return malformed;
    },
    /** Resolves once `count` pushes have arrived in all. */
    until(count: number) {
      return new Promise<void>((resolve) => {
        onCount = () => {
          if (received >= count) resolve();
        };
        onCount();
      });
    },
    close: async () => {
      child.disconnect();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const service = pushService();
  const origin = await service.start();
  const ctx = await createTestApp({
    config: { logLevel: 'error', pushAllowPrivateAddress: true, pushGroupSeconds: WINDOW },
  });
  const { db } = ctx.database;
  try {
    // The people, each signed in once (a session) with one subscribed device, and the one who notifies them.
    const device = createECDH('prime256v1');
    device.generateKeys();
    const p256dh = device.getPublicKey().toString('base64url');
    const auth = randomBytes(16).toString('base64url');
    const setUpAt = performance.now();
    const [artist] = await queryRows<{ id: string }>(
      db,
      sql`insert into users (username, first_name, last_name, email, password_hash)
          values ('bench_push_artist', 'Ana', 'Rivera', 'bench-push-artist@example.com', 'x') returning id`,
    );
    await db.execute(
      sql`insert into users (username, first_name, email, password_hash)
          select 'bench_push_' || g, 'Fan', 'bench-push-' || g || '@example.com', 'x' from generate_series(1, ${PEOPLE}) g`,
    );
    await db.execute(
      sql`insert into sessions (user_id) select id from users where username like 'bench\\_push\\_%' and id <> ${artist!.id}::uuid`,
    );
    await db.execute(
      sql`insert into push_subscriptions (user_id, session_id, endpoint, p256dh, auth)
          select s.user_id, s.id, ${`${origin}/push/`} || s.id, ${p256dh}, ${auth}
          from sessions s join users u on u.id = s.user_id where u.username like 'bench\\_push\\_%'`,
    );
    console.log(
      `push: ${PEOPLE} people with one subscribed device each, set up in ${((performance.now() - setUpAt) / 1000).toFixed(1)} s ` +
        `(${ctx.database.kind}, ${availableParallelism()} cores available, group window ${WINDOW} s)`,
    );

    const totals: number[] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const before = service.received;
      const startedAt = performance.now();
      // The fan-out: one statement, one notification and one event per person.
      await queryRows(
        db,
        sql`with created as (
              insert into notifications (recipient_id, actor_id, kind)
              select u.id, ${artist!.id}::uuid, 'follow' from users u
              where u.username like 'bench\\_push\\_%' and u.id <> ${artist!.id}::uuid
              returning id, recipient_id
            )
            select count(${publishSql({ type: 'notification-added', recipientId: sql`recipient_id`, notificationId: sql`id` })})::int as sent
            from created`,
      );
      const committedIn = (performance.now() - startedAt) / 1000;
      // Every event marked and its job queued.
      for (;;) {
        await ctx.app.push.settled();
        const [pending] = await queryRows<{ count: number }>(
          db,
          sql`select count(*)::int as count from push_groups where pending`,
        );
        if (pending!.count >= PEOPLE || service.received - before >= PEOPLE) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const queuedIn = (performance.now() - startedAt) / 1000;
      await service.until(before + PEOPLE);
      const total = (performance.now() - startedAt) / 1000;
      totals.push(total);
      console.log(
        `run ${run}: statement committed in ${committedIn.toFixed(1)} s, ${PEOPLE} groups marked and queued by ` +
          `${queuedIn.toFixed(1)} s, ${PEOPLE} pushes received by ${total.toFixed(1)} s ` +
          `(${(total - WINDOW).toFixed(1)} s after the ${WINDOW} s window; ${Math.round(PEOPLE / (total - WINDOW))} pushes a second)`,
      );
    }
    // The last job's bookkeeping (each subscription's last success) after its pushes arrived.
    for (;;) {
      const counts = (await ctx.app.jobs.counts()).find((row) => row.kind === 'push.groups');
      if (!counts || (counts.queued ?? 0) + (counts.running ?? 0) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (service.malformed > 0)
      throw new Error(`${service.malformed} pushes arrived without a VAPID header or encrypted body`);
    const [delivered] = await queryRows<{ count: number }>(
      db,
      sql`select count(*)::int as count from push_subscriptions where last_success_at is not null`,
    );
    console.log(
      `push: median of ${RUNS} runs: ${PEOPLE} pushes in ${median(totals).toFixed(1)} s from the fan-out's commit ` +
        `(${(median(totals) - WINDOW).toFixed(1)} s past the group window); ${delivered!.count} subscriptions marked delivered`,
    );
  } finally {
    await ctx.close();
    await service.close();
  }
}

await main();
