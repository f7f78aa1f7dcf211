import { spawn, type ChildProcess } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import type { TestContext } from './helpers.js';

// Private redis-server processes for the tests that need Redis (issue 25), on ports of their own
// (6390-6399), never the machine's shared Redis: a test may kill and restart its own.

export interface PrivateRedis {
  port: number;
  url: string;
  /** SIGKILL: gone at once, as a crashed or unreachable Redis would be. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty (it keeps nothing on disk). */
  restart(): Promise<void>;
}

/** A throw-away redis-server on the first port of 6390-6399 it can bind. */
export async function privateRedis(): Promise<PrivateRedis> {
  for (let port = 6390; port <= 6399; port += 1) {
    let child = await serve(port).catch(() => undefined);
    if (!child) continue;
    return {
      port,
      url: `redis://127.0.0.1:${port}`,
      kill: () => kill(child!),
      async restart() {
        child = await serve(port);
      },
    };
  }
  throw new Error('redis-server could not start on any port from 6390 to 6399 (is it installed?)');
}

/** Resolves once the server says it is ready; rejects when it exits first (the port is taken). */
function serve(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve(child);
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code} on port ${port}`)));
  });
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/**
 * A second server process of a test app, as far as shared state goes: the same config and database, its
 * own memory (caches, the LRUs, in-memory limits). Close it before the test app.
 */
export async function anotherProcess(ctx: TestContext): Promise<FastifyInstance> {
  const app = await buildApp(ctx.config, ctx.database);
  await app.ready();
  return app;
}
