import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorOf, multipart, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { DISK_MESSAGES, diskProblem } from '../../lib/disk-errors.js';
import { createMediaService } from './media.service.js';
import type { MediaLog } from './media.storage.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');

// Tests may run as root, for whom chmod does not stop writes: once the app has started, the folder that
// holds the media folder is replaced by a regular file, and every write fails (ENOTDIR) whoever runs
// it. Putting a folder back heals it.
let scratch: string;
let blocker: string;
let ctx: TestContext;
let ana: SignedUp;
let clock = 1_000_000;
let picture: Buffer;

/** Errors raised by real writes, to check how each is classified. */
const failedWrite = (file: string) =>
  writeFile(file, 'x').then(
    () => undefined,
    (error: unknown) => error,
  );

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'share-arts-disk-'));
  blocker = path.join(scratch, 'not-a-folder');
  await mkdir(path.join(blocker, 'media'), { recursive: true });
  picture = await readFile(path.join(FIXTURES, 'art.webp'));
  ctx = await createTestApp({
    // A full or read-only disk: the media folder's own failures, whatever MEDIA_STORE the suite runs with.
    config: { mediaDir: path.join(blocker, 'media'), mediaStore: { kind: 'local' }, now: () => clock },
    beforeReady: (app) =>
      app.get('/api/test-disk-full', async () => {
        // What a driver does with a full disk: its own error, the errno as its cause.
        throw new Error('could not extend file', { cause: await failedWrite('/dev/full') });
      }),
  });
  ana = await signUp(ctx.app);
  await rm(blocker, { recursive: true });
  await writeFile(blocker, 'a file where the media folder should be');
});
afterAll(async () => {
  await ctx.close();
  await rm(scratch, { recursive: true, force: true });
});

const upload = () => {
  const { payload, contentType } = multipart([{ name: 'file', data: picture, filename: 'art.webp' }]);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/media',
    payload,
    headers: { 'content-type': contentType, authorization: ana.token },
  });
};
const health = () => ctx.app.inject({ method: 'GET', url: '/api/health' });

describe('a media folder that takes no writes', () => {
  it('answers uploads 503 with a message that says why, and reports it in /api/health', async () => {
    const response = await upload();
    expect(response.statusCode).toBe(503);
    expect(errorOf(response)).toBe(DISK_MESSAGES.unwritable);
    expect(response.headers['retry-after']).toBe('60');

    const reported = await health();
    expect(reported.statusCode).toBe(200);
    expect(reported.json()).toEqual({
      status: 'degraded',
      database: 'up',
      storage: 'failing',
      problems: [DISK_MESSAGES.unwritable],
    });
  });

  it('reports the storage healthy again once the folder can be written', async () => {
    await rm(blocker);
    await mkdir(blocker);
    // The probe ran moments ago: it runs again after 2 s.
    clock += 2000;
    expect((await health()).json()).toEqual({ status: 'ok', database: 'up', storage: 'ok' });
    expect((await upload()).statusCode).toBe(201);
    await rm(blocker, { recursive: true });
    await writeFile(blocker, 'blocked again');
  });

  it('logs the cause once when it starts and once when it ends, not per upload', async () => {
    const logged: { level: string; message: string }[] = [];
    const log: MediaLog = {
      info: (_details, message) => logged.push({ level: 'info', message }),
      warn: (_details, message) => logged.push({ level: 'warn', message }),
      error: (_details, message) => logged.push({ level: 'error', message }),
    };
    const media = createMediaService({ db: ctx.database.db, mediaDir: path.join(blocker, 'media'), log });
    for (let i = 0; i < 3; i += 1) {
      await expect(media.upload({ ownerId: ana.user._id, data: picture })).rejects.toMatchObject({
        statusCode: 503,
        message: DISK_MESSAGES.unwritable,
      });
    }
    expect(logged.map((entry) => entry.level)).toEqual(['error']);
    expect(logged[0]!.message).toMatch(/^cannot write to the media folder \(unwritable\)/);
    await rm(blocker);
    await mkdir(blocker);
    await media.upload({ ownerId: ana.user._id, data: picture });
    await media.upload({ ownerId: ana.user._id, data: picture });
    expect(logged.map((entry) => entry.level)).toEqual(['error', 'info']);
  });

  it('answers 503 with the disk-full message when any request meets a full disk (ENOSPC)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/test-disk-full' });
    expect(response.statusCode).toBe(503);
    expect(errorOf(response)).toBe(DISK_MESSAGES.full);
  });
});

describe('diskProblem', () => {
  it('reads a real ENOSPC (a write to /dev/full), wrapped or not, as a full disk', async () => {
    const enospc = await failedWrite('/dev/full');
    expect((enospc as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(diskProblem(enospc)).toBe('full');
    expect(diskProblem(new Error('wrapped', { cause: enospc }))).toBe('full');
  });

  it("reads PostgreSQL's disk_full, EDQUOT and EROFS; permission errors only for a write", () => {
    expect(diskProblem({ code: '53100' })).toBe('full');
    expect(diskProblem({ code: 'EDQUOT' })).toBe('full');
    expect(diskProblem({ code: 'EROFS' })).toBe('unwritable');
    expect(diskProblem({ code: 'EACCES' })).toBeUndefined();
    expect(diskProblem({ code: 'EACCES' }, { strict: false })).toBe('unwritable');
    expect(diskProblem({ code: 'ENOENT' }, { strict: false })).toBeUndefined();
    expect(diskProblem(new Error('nothing to do with a disk'))).toBeUndefined();
  });
});
