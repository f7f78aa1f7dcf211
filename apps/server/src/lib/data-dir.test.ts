import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateJwtSecret, lockDataDir } from './data-dir.js';

const dirs: string[] = [];
const freshDir = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-data-'));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the data folder', () => {
  it('is locked by one server at a time: a second one is refused with a clear message', async () => {
    const dir = await freshDir();
    const release = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(
      `Another Share Arts server is using the data folder ${dir}. Stop that server first, or start this one with another DATA_DIR.`,
    );
    await release();
    const again = await lockDataDir(dir);
    await again();
  }, 30_000);

  /** Another process that takes the lock on `dir` and holds it until it is killed. */
  async function lockInChild(dir: string): Promise<ChildProcess> {
    const module = path.join(import.meta.dirname, 'data-dir.ts');
    const script = `import(${JSON.stringify(module)}).then((m) => m.lockDataDir(${JSON.stringify(dir)}))
      .then(() => { console.log('locked'); setInterval(() => {}, 60_000); })`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    expect(line.toString().trim()).toBe('locked');
    return child;
  }

  it.runIf(process.platform === 'linux')(
    'stays locked while its server is paused, however long, and is free once that server is killed',
    async () => {
      const dir = await freshDir();
      const child = await lockInChild(dir);
      try {
        child.kill('SIGSTOP');
        // Longer than the five seconds after which the lock file of earlier versions went stale.
        await new Promise((resolve) => setTimeout(resolve, 8_000));
        await expect(lockDataDir(dir)).rejects.toThrow('Another Share Arts server is using the data folder');
      } finally {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
      const release = await lockDataDir(dir);
      await release();
    },
    60_000,
  );

  it('keeps a generated JWT secret, readable by its owner only, across starts', async () => {
    const dir = await freshDir();
    const secret = await loadOrCreateJwtSecret(dir);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(await loadOrCreateJwtSecret(dir)).toBe(secret);
    expect((await readFile(path.join(dir, 'jwt-secret'), 'utf8')).trim()).toBe(secret);
    expect((await stat(path.join(dir, 'jwt-secret'))).mode & 0o777).toBe(0o600);
  });
});
