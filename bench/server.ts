import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
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

/** Waits until `url` answers 2xx, or throws when `child` stops or 2 minutes pass. */
async function answering(child: ChildProcess, url: string): Promise<void> {
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error('The server stopped while starting (did you run `npm run build`?).');
    if (i > 600) throw new Error(`${url} did not answer within 2 minutes.`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Stops `child` with SIGTERM; once it has exited, its data folder goes. */
const stopping = (child: ChildProcess, dataDir: string) => () =>
  new Promise<void>((resolve) => {
    child.once('exit', () => {
      rmSync(dataDir, { recursive: true, force: true });
      resolve();
    });
    child.kill('SIGTERM');
  });

/**
 * Starts the built production server (`npm run build` first) on a free port with a fresh data folder
 * and no rate limits, and waits until /api/health answers. `env` adds to or overrides the settings.
 * `logToFile`: its standard output (the log's JSON lines) goes to a file in its data folder, as a
 * production server's goes to a file or a collector, instead of this terminal (set LOG_LEVEL=info in
 * `env` for a line per request). `checkout`: another checkout's build instead of this one's (a `git worktree`
 * of an older commit, built with `tsc -b` in apps/server), for before-and-after figures from one run.
 */
export async function startProductionServer(
  env: Record<string, string> = {},
  {
    logToFile = false,
    checkout = '.',
    nodeFlags = [],
  }: {
    logToFile?: boolean;
    checkout?: string;
    /** Flags for node itself, such as --cpu-prof. */ nodeFlags?: string[];
  } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'share-arts-bench-'));
  const log = logToFile ? openSync(path.join(dataDir, 'server.log'), 'a') : 'inherit';
  const child = spawn(process.execPath, [...nodeFlags, path.join(checkout, 'apps/server/dist/main.js')], {
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
    stdio: ['ignore', log, 'inherit'],
  });
  if (typeof log === 'number') closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  await answering(child, `${url}/api/health`);
  return { url, pid: child.pid!, stop: stopping(child, dataDir) };
}

/**
 * Starts bench/bare-fastify.ts (issue 26): the app's Fastify with no plugin and no hook, answering
 * GET /api/bench/hello as the app's reference route does. `log`: Fastify's logger on, one line per
 * request, written to a file as the production server's are.
 */
export async function startBareFastify({ log = false } = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'share-arts-bench-bare-'));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'bare-fastify.ts')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      LOG_FILE: log ? path.join(dataDir, 'server.log') : '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await answering(child, `${url}/api/bench/hello`);
  return { url, pid: child.pid!, stop: stopping(child, dataDir) };
}
