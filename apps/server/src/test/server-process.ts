import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './fake-remote.js';

/**
 * The real server (src/main.ts) as a child process, for the tests that kill it with -9 in the middle of their work
 * and start it again (the job queue's, the imports'). Not a test itself: the test files import it.
 */

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  exited: Promise<unknown>;
}

/**
 * Starts the server on a free loopback port with `env` added to this process's (production mode, no rate limits,
 * warnings only), in its own process group (a primary and its workers are killed at once), and answers once
 * `/api/health` does.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return { child, url, exited };
    if (waited > 60_000) throw new Error('the server did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** kill -9 of the server's whole process group; answers once it is gone. */
export async function killServerProcess(server: ServerProcess): Promise<void> {
  process.kill(-server.child.pid!, 'SIGKILL');
  await server.exited;
}
