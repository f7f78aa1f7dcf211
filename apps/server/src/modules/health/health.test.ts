import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestApp, unreachableDatabase, type TestContext } from '../../test/helpers.js';
import { privateRedis, type PrivateRedis } from '../../test/redis.js';

// GET /api/ready (issue 25): each dependency's state, 200 when all answer, else 503 naming what is down.
// Real ones: the test database, the media folder (made unwritable by a file where its parent folder
// was), a private redis-server that is killed, and a PostgreSQL address nothing listens on.
let redis: PrivateRedis;
let ctx: TestContext;
let scratch: string;
let blocker: string;
let clock = 1_000_000;
beforeAll(async () => {
  redis = await privateRedis();
  scratch = await mkdtemp(path.join(os.tmpdir(), 'share-arts-ready-'));
  blocker = path.join(scratch, 'parent');
  await mkdir(path.join(blocker, 'media'), { recursive: true });
  ctx = await createTestApp({
    config: {
      // The media folder made unwritable below: the local driver whatever MEDIA_STORE the suite runs with.
      mediaDir: path.join(blocker, 'media'),
      mediaStore: { kind: 'local' },
      rateLimits: true,
      redisUrl: redis.url,
      redisKeyPrefix: `ready-test-${process.pid}:`,
      now: () => clock,
      // API only: no web build to serve.
      webDistDir: path.join(scratch, 'no-web-build'),
    },
  });
});
afterAll(async () => {
  await ctx?.close();
  await redis?.kill();
  await rm(scratch, { recursive: true, force: true });
});

const ready = () => ctx.app.inject({ method: 'GET', url: '/api/ready' });

describe('GET /api/ready', () => {
  it('answers 200 with each check up', async () => {
    const response = await ready();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      checks: { database: 'up', storage: 'up', redis: 'up', jobs: 'up' },
    });
  });

  it('answers 200 degraded naming Redis while it is down (requests are still served), and ready once it is back', async () => {
    await redis.kill();
    const started = Date.now();
    const down = await ready();
    expect(Date.now() - started).toBeLessThan(2500);
    expect(down.statusCode).toBe(200);
    expect(down.json()).toEqual({
      status: 'degraded',
      checks: { database: 'up', storage: 'up', redis: 'down', jobs: 'up' },
      problems: ['Redis (REDIS_URL) does not answer: rate limits are counted in each process meanwhile.'],
    });
    // /api/health, the liveness check, is not affected.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    await redis.restart();
    let answer = await ready();
    for (let waited = 0; answer.json().status !== 'ready' && waited < 10_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      answer = await ready();
    }
    expect(answer.json()).toEqual({
      status: 'ready',
      checks: { database: 'up', storage: 'up', redis: 'up', jobs: 'up' },
    });
  });

  it('answers 503 naming the storage when the media folder takes no writes', async () => {
    await rm(blocker, { recursive: true });
    await writeFile(blocker, 'a file where the media folder should be');
    clock += 10_000; // past the storage probe's interval
    try {
      const response = await ready();
      expect(response.statusCode).toBe(503);
      const body = response.json();
      expect(body.checks).toEqual({ database: 'up', storage: 'down', redis: 'up', jobs: 'up' });
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]).toMatch(/^The pictures' storage is not available: /);
    } finally {
      await rm(blocker);
      await mkdir(path.join(blocker, 'media'), { recursive: true });
      clock += 10_000;
    }
    await ctx.app.inject({ method: 'GET', url: '/api/health' }); // starts a new probe
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await ready()).statusCode).toBe(200);
  });

  it('answers 503 naming the database when it does not answer, within the check time', async () => {
    const database = unreachableDatabase(5000);
    const app = await buildApp({ ...ctx.config, redisUrl: undefined, webDistDir: '/nonexistent' }, database);
    try {
      const started = Date.now();
      const response = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        errors: [
          'The database does not answer.',
          'The background job queue does not answer: mails and sweeps wait until it is back.',
        ],
        checks: { database: 'down', storage: 'up', redis: 'off', jobs: 'down' },
      });
    } finally {
      await app.close();
      await database.close();
    }
  });
});
