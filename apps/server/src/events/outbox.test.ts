import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.js';
import { createTestApp, createPost, signUp, type TestContext } from '../test/helpers.js';
import { createEventBus, type EventBus } from './bus.js';
import { publish, type DomainEvent } from './events.js';
import { packPayloads } from './outbox.js';

describe('packPayloads', () => {
  it('packs payloads in order into JSON arrays under 8000 bytes, and sends one too long for brackets alone', () => {
    const payloads = Array.from({ length: 500 }, (_, i) => JSON.stringify({ type: 'post-changed', postId: `é${i}` }));
    const long = JSON.stringify({ type: 'relations-changed', userIds: ['x'.repeat(7955)] }); // 7998 bytes
    const chunks = packPayloads([...payloads.slice(0, 250), long, ...payloads.slice(250)]);
    for (const chunk of chunks) expect(Buffer.byteLength(chunk)).toBeLessThan(8000);
    expect(chunks).toContain(long);
    const unpacked = chunks.flatMap((chunk) =>
      chunk.startsWith('[') ? (JSON.parse(chunk) as unknown[]) : [JSON.parse(chunk)],
    );
    expect(unpacked).toEqual([...payloads.slice(0, 250), long, ...payloads.slice(250)].map((p) => JSON.parse(p)));
    expect(chunks.length).toBeLessThan(10);
  });
});

/**
 * The outbox on PostgreSQL (issue 26): events leave after their transaction commits, in order, never for a
 * rolled-back one, and none is lost when the process that wrote them is killed.
 */
describe.runIf(process.env.DATABASE_URL)('the event outbox', () => {
  let ctx: TestContext;
  let bus: EventBus;
  const received: DomainEvent[] = [];

  beforeAll(async () => {
    ctx = await createTestApp();
    // A listener of its own (with a relay of its own, as every process has).
    bus = await createEventBus(ctx.database);
    bus.subscribe((event) => received.push(event));
  });
  afterAll(async () => {
    await bus.close();
    await ctx.close();
  });

  const eventually = async (what: string, check: () => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const changed = (postId: string) => received.filter((e) => e.type === 'post-changed' && e.postId === postId);

  it('sends an event once its transaction commits, never one rolled back, and in the order written', async () => {
    const id = `commit-${Date.now()}`;
    let inTransaction = 0;
    await ctx.database.db.transaction(async (tx) => {
      for (let i = 0; i < 300; i++) await publish(tx, { type: 'post-changed', postId: `${id}-${i}` });
      // Held open past a few relay polls: nothing may leave before the commit.
      await new Promise((resolve) => setTimeout(resolve, 700));
      inTransaction = received.filter((e) => e.type === 'post-changed' && e.postId.startsWith(id)).length;
    });
    expect(inTransaction).toBe(0);
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await publish(tx, { type: 'post-changed', postId: `${id}-rolled-back` });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await eventually(
      'the 300 events',
      () => received.filter((e) => e.type === 'post-changed' && e.postId.startsWith(`${id}-`)).length >= 300,
    );
    const order = received
      .filter(
        (e): e is Extract<DomainEvent, { type: 'post-changed' }> =>
          e.type === 'post-changed' && e.postId.startsWith(`${id}-`),
      )
      .map((e) => e.postId);
    expect(order).toEqual(Array.from({ length: 300 }, (_, i) => `${id}-${i}`));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(changed(`${id}-rolled-back`)).toEqual([]);
  });

  it('sends the events a dead process left in the outbox, and refuses one too long to send', async () => {
    const id = `left-${Date.now()}`;
    // As a writer that committed and died before any relay ran would leave them.
    const client = new pg.Client({ connectionString: ctx.database.url });
    await client.connect();
    await client.query(
      `insert into event_outbox (payload) select json_build_object('type', 'post-changed', 'postId', $1::text || '-' || n)::text from generate_series(1, 5) n`,
      [id],
    );
    await expect(client.query(`select share_arts_publish(repeat('x', 8000))`)).rejects.toThrow(
      'payload string too long',
    );
    await client.end();
    await eventually('the events left behind', () =>
      received.some((e) => e.type === 'post-changed' && e.postId === `${id}-5`),
    );
    expect(await queryRows(ctx.database.db, sql`select count(*)::int as n from event_outbox`)).toEqual([{ n: 0 }]);
  });

  it('loses no event of a committed like when the server that wrote it is killed (kill -9)', async () => {
    const serverRoot = path.resolve(import.meta.dirname, '../..');
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/test/serve.ts'], {
      cwd: serverRoot,
      env: { ...process.env, DATABASE_URL: ctx.database.url, JWT_SECRET: ctx.config.jwtSecret, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk) => {
        out += String(chunk);
        const match = /listening on (\d+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`the second server exited with ${code}`)));
    });
    const author = await signUp(ctx.app);
    const fans = await Promise.all(Array.from({ length: 30 }, () => signUp(ctx.app)));
    const posts = await Promise.all(fans.map((_, i) => createPost(ctx.app, author, `kill -9 ${i}`)));
    // Every fan likes a post of their own through the child, which is killed once a few have answered.
    let answered = 0;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const likes = fans.map((fan, i) =>
      fetch(`http://127.0.0.1:${port}/api/posts/like/${posts[i]}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fan.token}`, prefer: 'return=minimal' },
      }).then(
        (response) => {
          if (response.ok && ++answered === 5) child.kill('SIGKILL');
        },
        () => {}, // cut by the kill
      ),
    );
    await Promise.all(likes);
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
    // What committed: every like row is a like whose event must arrive; a post without one, none.
    const rows = await queryRows<{ id: string; like_count: number }>(
      ctx.database.db,
      sql`select id, like_count from posts where id in (select value::uuid from json_array_elements_text(${JSON.stringify(posts)}::json))`,
    );
    const liked = rows.filter((r) => Number(r.like_count) === 1).map((r) => r.id);
    expect(liked.length).toBeGreaterThanOrEqual(5);
    const counted = (postId: string) => received.some((e) => e.type === 'post-counts-changed' && e.postId === postId);
    await eventually('an event for every committed like', () => liked.every(counted));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(posts.filter(counted).sort()).toEqual([...liked].sort());
  }, 120_000); // a second server to start, 30 accounts and 30 posts: slow on a loaded machine
});
