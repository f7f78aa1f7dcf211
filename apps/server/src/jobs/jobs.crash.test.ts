import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, queryRows, type Database } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { openMigratedPglite } from '../test/helpers.js';
import { killServerProcess as killAll, startServerProcess } from '../test/server-process.js';
import { startSmtpServer, type TestSmtpServer } from '../test/smtp.js';

// kill -9 of the server, and of one of its workers, while mails are being sent from background jobs
// (issue 37): after the restart every queued mail is sent, and none twice (one Message-ID per account, whose
// link confirms the address). The real server (src/main.ts), on PGlite in a folder or on PostgreSQL.

const ACCOUNTS = 16;
const JWT_SECRET = 'crash-test-secret-that-is-long-enough-0123456789';

let smtp: TestSmtpServer;
let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase = async () => {};

/** The database the server will use, migrated and with one account, so the server seeds no sample data. */
async function prepareDatabase(): Promise<void> {
  let database: Database;
  if (process.env.DATABASE_URL) {
    const name = `sharearts_jobs_crash_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
    database = await openPostgres(databaseUrl);
  } else {
    database = await openMigratedPglite(path.join(dataDir, 'db'));
  }
  await migrate(database);
  await database.db.execute(
    sql`insert into users (username, first_name, last_name, email, password_hash)
        values ('placeholder', 'Place', 'Holder', 'placeholder@example.test', 'x')`,
  );
  await database.close();
}

/** The server with `workers` processes on this test's data folder and database, mailing to the test's SMTP server. */
const startServer = (workers: number) =>
  startServerProcess({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    WORKERS: String(workers),
    SHARE_ARTS_WORKER_HEADER: '1',
    JWT_SECRET,
    SMTP_URL: smtp.url,
  });

async function signUp(url: string, n: number): Promise<{ email: string; worker: string | null }> {
  const email = `crash${n}_${randomBytes(3).toString('hex')}@example.test`;
  const response = await fetch(`${url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `crash${n}_${randomBytes(3).toString('hex')}`,
      fullname: 'Crash Test',
      email,
      password: 'a long enough crash password',
    }),
  });
  expect(response.status).toBe(201);
  return { email, worker: response.headers.get('x-share-arts-worker') };
}

const until = async (what: string, done: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** Every account has exactly one mail (by Message-ID), and its link confirms the address once. */
async function expectEachMailOnce(url: string, emails: string[]): Promise<void> {
  // Past a retry's heartbeat (10 s), supervision and back-off: every queued mail arrives.
  await until(
    'a mail to every account',
    () => emails.every((email) => smtp.received.some((mail) => mail.to === email)),
    150_000,
  );
  for (const email of emails) {
    const mails = smtp.received.filter((mail) => mail.to === email);
    expect(new Set(mails.map((mail) => mail.messageId)).size, email).toBe(1);
    const token = new URL(mails[0]!.link).searchParams.get('token');
    const verified = await fetch(`${url}/api/auth/verify-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(verified.status, email).toBe(200);
  }
  const database = databaseUrl ? await openPostgres(databaseUrl) : undefined;
  if (database) {
    const left = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from pgboss.job where name like 'mail.%' and state not in ('completed')`,
    );
    expect(left).toEqual([{ n: 0 }]);
    await database.close();
  }
}

beforeAll(async () => {
  // A slow mail provider: each mail takes 250 ms to be accepted, so a kill lands while jobs run.
  smtp = await startSmtpServer({ acceptAfterMs: 250 });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-jobs-crash-'));
  await prepareDatabase();
}, 120_000);
afterAll(async () => {
  await smtp?.close();
  await dropDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

describe('background jobs through kill -9', () => {
  it('sends every queued mail once after the whole server is killed mid-job and restarted', async () => {
    // With PostgreSQL, two workers, one of which is killed first (the primary replaces it).
    const workers = databaseUrl ? 2 : 1;
    let server = await startServer(workers);
    // Every mail is queued before the first is accepted, then they go out one by one.
    smtp.pause();
    const accounts = [];
    for (let n = 0; n < ACCOUNTS; n += 1) accounts.push(await signUp(server.url, n));
    const emails = accounts.map((account) => account.email);
    smtp.resume();

    if (workers > 1) {
      await until('the first mails', () => smtp.received.length >= 3, 60_000);
      const worker = accounts.at(-1)!.worker;
      expect(worker).toMatch(/^\d+$/);
      process.kill(Number(worker), 'SIGKILL');
    }
    const sentBefore = smtp.received.length;
    await until('more mails', () => smtp.received.length >= sentBefore + 3, 90_000);
    await killAll(server);
    const sentAtKill = smtp.received.length;
    expect(sentAtKill).toBeLessThan(ACCOUNTS);

    server = await startServer(workers);
    try {
      await expectEachMailOnce(server.url, emails);
    } finally {
      await killAll(server);
    }
  }, 300_000);
});
