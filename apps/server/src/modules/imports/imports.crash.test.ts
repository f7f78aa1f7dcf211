import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import type { Import } from '@share-arts/contract';
import { openPglite, queryRows } from '../../db/client.js';
import { multipart, openMigratedPglite } from '../../test/helpers.js';
import { killServerProcess as killAll, startServerProcess, type ServerProcess } from '../../test/server-process.js';

// kill -9 of the whole server in the middle of an import (issue 40): after the restart the job goes on where it
// stopped, and every source post is imported once, none lost, none twice. The real server (src/main.ts) on PGlite
// in a folder (the API's other tests cover PostgreSQL; the job's resume does not depend on the database).

const POSTS = 16;
let dataDir: string;

/** The server, one process, on PGlite in this test's data folder. */
const startServer = () =>
  startServerProcess({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    WORKERS: '1',
    JWT_SECRET: 'imports-crash-secret-that-is-long-enough-0123456789',
  });

/** An Instagram archive of POSTS posts of one large picture each (each takes the pipeline a moment). */
async function archive(): Promise<Buffer> {
  const zip = new ZipFile();
  const posts = [];
  for (let n = 0; n < POSTS; n += 1) {
    const uri = `media/posts/${n}.jpg`;
    posts.push({ media: [{ uri, creation_timestamp: 1600000000 + n * 3600, title: `Work ${n}` }] });
    const data = await sharp({
      create: { width: 1600, height: 1200, channels: 3, background: { r: n * 10, g: 90, b: 40 } },
    })
      .jpeg()
      .toBuffer();
    zip.addBuffer(data, uri, { compress: false });
  }
  zip.addBuffer(Buffer.from(JSON.stringify(posts)), 'your_instagram_activity/media/posts_1.json');
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function progress(server: ServerProcess, token: string, id: string): Promise<Import> {
  const response = await fetch(`${server.url}/api/imports/${id}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await response.json()) as { import: Import }).import;
}

const until = async (what: string, done: () => Promise<boolean>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-imports-crash-'));
  const database = await openMigratedPglite(path.join(dataDir, 'db'));
  // One account, so the server seeds no sample data.
  await database.db.execute(
    sql`insert into users (username, first_name, last_name, email, password_hash)
        values ('placeholder', 'Place', 'Holder', 'placeholder@example.test', 'x')`,
  );
  await database.close();
}, 120_000);
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('an import through kill -9', () => {
  it('goes on where it stopped after the server is killed mid-import and restarted: every post once', async () => {
    let server = await startServer();
    const signup = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'crashartist',
        fullname: 'Crash Artist',
        email: 'crash@example.test',
        password: 'a long enough crash password',
      }),
    });
    expect(signup.status).toBe(201);
    const token = ((await signup.json()) as { encodedToken: string }).encodedToken;
    const { payload, contentType } = multipart([{ name: 'file', data: await archive(), filename: 'ig.zip' }]);
    const uploaded = await fetch(`${server.url}/api/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body: new Uint8Array(payload),
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const id = ((await uploaded.json()) as { import: Import }).import._id;
    const started = await fetch(`${server.url}/api/imports/${id}/start`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(started.status).toBe(202);
    await until(
      'a few works imported',
      async () => (await progress(server, token, id)).progress.postsDone >= 3,
      120_000,
    );
    await killAll(server);

    server = await startServer();
    try {
      const before = await progress(server, token, id);
      expect(before.progress.postsDone).toBeLessThan(POSTS);
      // Past the heartbeat (10 s) and the retry's delay, the job runs again.
      await until('the import to finish', async () => (await progress(server, token, id)).state === 'done', 180_000);
      expect((await progress(server, token, id)).progress).toMatchObject({
        postsDone: POSTS,
        imported: POSTS,
        skipped: 0,
      });
    } finally {
      await killAll(server);
    }
    const database = await openPglite(path.join(dataDir, 'db'));
    try {
      const works = await queryRows<{ content: string; pictures: number }>(
        database.db,
        sql`select p.content, (select count(*)::int from post_media where post_id = p.id) as pictures
            from posts p join users u on u.id = p.author_id where u.username = 'crashartist' order by p.created_at`,
      );
      expect(works).toEqual(Array.from({ length: POSTS }, (_, n) => ({ content: `Work ${n}`, pictures: 1 })));
      const [user] = await queryRows<{ post_count: number }>(
        database.db,
        sql`select post_count from users where username = 'crashartist'`,
      );
      expect(user!.post_count).toBe(POSTS);
    } finally {
      await database.close();
    }
  }, 400_000);
});
