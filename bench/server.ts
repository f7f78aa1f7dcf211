import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface RunningServer {
  url: string;
  /** The server process's pid (its CPU time is in /proc/<pid>/stat). */
  pid: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built production server (`npm run build` first) on a free port with a fresh data folder
 * and no rate limits, and waits until /api/health answers. `env` adds to or overrides the settings.
 */
export async function startProductionServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'share-arts-bench-'));
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // Empty means the default: the embedded database and a generated secret under DATA_DIR.
      DATABASE_URL: '',
      MEDIA_DIR: '',
      JWT_SECRET: '',
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      // One server process unless `env` asks for more (bench:api's --workers; on PostgreSQL the default is one per core).
      WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error('The server stopped while starting (did you run `npm run build`?).');
    if (i > 600) throw new Error('The server did not answer /api/health within 2 minutes.');
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
