/**
 * What the reliability scripts share: the production server as a child process (kill -9 included),
 * HTTP with a chosen source address, the server's RSS, fresh PostgreSQL databases, a private
 * throw-away PostgreSQL cluster, a seeded random generator and small statistics.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, createWriteStream, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER_ENTRY = path.join(ROOT, 'apps/server/dist/main.js');

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class CheckFailed extends Error {}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `share-arts-${prefix}-`));
}

// ---------------------------------------------------------------------------------------------
// The production server

export interface ServerOptions {
  port: number;
  dataDir: string;
  /** PostgreSQL; unset means the embedded database under dataDir. */
  databaseUrl?: string;
  /** Where the server's output goes (appended), so a failure can show it. */
  logFile: string;
  env?: Record<string, string>;
  /** Flags for node itself, before the entry (for example `--inspect=127.0.0.1:PORT`). */
  nodeFlags?: string[];
}

export interface ServerProcess {
  pid: number;
  url: string;
  /** Milliseconds from spawn to the first 200 of /api/health. */
  startMs: number;
  alive(): boolean;
  /** SIGKILL, then waits for the process to be gone. */
  kill9(): Promise<void>;
  /** SIGTERM (a clean stop), then waits for the exit. */
  stop(): Promise<void>;
  /** The exit code once it has exited (null while running, or when a signal ended it). */
  exitCode(): number | null;
}

/** Starts apps/server/dist/main.js (`npm run build` first) and waits until /api/health answers 200. */
export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  if (!existsSync(SERVER_ENTRY)) {
    throw new CheckFailed(`${path.relative(ROOT, SERVER_ENTRY)} is missing: run \`npm run build\` first.`);
  }
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeFlags ?? []), SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl ?? '',
      MEDIA_DIR: '',
      JWT_SECRET: '',
      RATE_LIMITS: '',
      LOG_LEVEL: 'warn',
      // One process (on PostgreSQL the default is one per core): the checks kill and time this pid.
      WORKERS: '1',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  child.once('close', () => log.end());
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new CheckFailed(`The server stopped while starting:\n${tail(options.logFile)}`);
    }
    if (i > 1200) {
      child.kill('SIGKILL');
      throw new CheckFailed(`The server did not answer /api/health within 2 minutes:\n${tail(options.logFile)}`);
    }
    const health = await request(url, 'GET', '/api/health', { timeoutMs: 2000 }).catch(() => undefined);
    if (health?.status === 200) break;
    await sleep(100);
  }
  const startMs = performance.now() - started;
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    pid: child.pid!,
    url,
    startMs,
    alive,
    exitCode: () => child.exitCode,
    async kill9() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (alive()) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The last lines of a log file, indented, for an error message. */
export function tail(file: string, lines = 30): string {
  try {
    const text = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines);
    return text.map((line) => `    ${line}`).join('\n');
  } catch {
    return '    (no output)';
  }
}

/** The resident set size of a process, in kB (VmRSS of /proc/<pid>/status); undefined once it is gone. */
export function rssKb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of many shapes, read field by field
  body: any;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One JSON request. `localAddress` picks the source address (any of 127.0.0.0/8 on Linux): the server
 * counts sign-ups per address. Rejects on a network error, with the error's `code` (ECONNREFUSED: the
 * request never reached the server).
 */
export function request(
  base: string,
  method: string,
  pathname: string,
  options: {
    token?: string;
    body?: unknown;
    headers?: Record<string, string>;
    localAddress?: string;
    timeoutMs?: number;
  } = {},
): Promise<Answer> {
  const started = performance.now();
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${pathname}`,
      {
        method,
        agent,
        localAddress: options.localAddress,
        headers: {
          ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...options.headers,
        },
        timeout: options.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: performance.now() - started });
        });
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('request timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(payload);
  });
}

/** The error code of a failed request (ECONNREFUSED, ECONNRESET, ETIMEDOUT, …). */
export const errorCode = (error: unknown) => (error as { code?: string }).code ?? String(error);

/** Drops the pooled keep-alive sockets (after the server they lead to was killed). */
export function dropIdleSockets(): void {
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

export interface SignedUp {
  id: string;
  username: string;
  token: string;
}

/**
 * Signs up `count` users named `<prefix><n>`, at most `perAddress` from each source address
 * (127.0.0.10, 127.0.0.11, …), a few at a time (the password hash is deliberately slow).
 */
export async function signUpUsers(
  base: string,
  prefix: string,
  count: number,
  perAddress = 10,
  parallel = 4,
): Promise<SignedUp[]> {
  const users: SignedUp[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const username = `${prefix}${n}`;
      const answer = await request(base, 'POST', '/api/auth/signup', {
        body: { fullname: `Reliability ${n}`, email: `${username}@example.com`, username, password: 'reliability-pw' },
        localAddress: `127.0.0.${10 + Math.floor(n / perAddress)}`,
        timeoutMs: 30_000,
      });
      if (answer.status !== 201) {
        throw new CheckFailed(`Sign-up of ${username} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      }
      users[n] = { id: answer.body.createdUser._id, username, token: answer.body.encodedToken };
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return users;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

export const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

export const freshDatabaseName = (purpose: string) =>
  `sharearts_reliability_${purpose}_${Date.now()}_${randomBytes(3).toString('hex')}`;

/** Runs one statement on the server of `url` (connected to its own database). */
async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Creates database `name` on the server of `url`; answers the new database's URL. */
export async function createDatabase(url: string, name: string): Promise<string> {
  await adminQuery(url, `create database "${name}"`);
  return withDatabase(url, name);
}

export async function dropDatabase(url: string, name: string): Promise<void> {
  await adminQuery(url, `drop database if exists "${name}" with (force)`);
}

/** The binaries of the newest PostgreSQL installed (Debian layout), or undefined. */
export function postgresBinaries(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : undefined;
}

/**
 * A private PostgreSQL cluster under /tmp on a free port, made for one run and removed after: the
 * crash check stops it with `-m immediate` (a power cut for the database) without touching the
 * machine's shared server. As root, its commands run as the `postgres` user.
 */
export class PrivateCluster {
  readonly dir: string;
  readonly dataDir: string;
  private readonly asRoot = process.getuid?.() === 0;

  private constructor(
    readonly bin: string,
    readonly port: number,
  ) {
    this.dir = tempDir('pg');
    this.dataDir = path.join(this.dir, 'data');
  }

  static async create(bin: string): Promise<PrivateCluster> {
    const cluster = new PrivateCluster(bin, await freePort());
    if (cluster.asRoot) {
      const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
      const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
      if (!Number.isInteger(uid)) throw new CheckFailed('Running as root, but there is no postgres user for initdb.');
      chownSync(cluster.dir, uid, gid);
    }
    await cluster.run('initdb', ['-D', cluster.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    return cluster;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private command(tool: string, args: string[]): [string, string[]] {
    const command = path.join(this.bin, tool);
    return this.asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  }

  /** Runs a PostgreSQL tool and waits for it (without blocking the event loop: requests go on meanwhile). */
  private run(tool: string, args: string[]): Promise<void> {
    const [command, argv] = this.command(tool, args);
    return new Promise((resolve, reject) => {
      execFile(command, argv, (error, stdout, stderr) =>
        error ? reject(new CheckFailed(`${tool} ${args.join(' ')} failed:\n${stdout}${stderr}`)) : resolve(),
      );
    });
  }

  private runSync(tool: string, args: string[]): void {
    const [command, argv] = this.command(tool, args);
    const result = spawnSync(command, argv, { encoding: 'utf8' });
    if (result.status !== 0) {
      throw new CheckFailed(`${tool} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
    }
  }

  /** Starts the cluster and waits until it accepts connections. */
  start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=50`;
    return this.run('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      path.join(this.dir, 'log'),
      '-o',
      options,
      '-w',
      '-t',
      '60',
      'start',
    ]);
  }

  /** Stops it the hard way: no checkpoint, every backend killed; the next start runs crash recovery. */
  stopImmediate(): Promise<void> {
    return this.run('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
  }

  /** Stops it (if running) and removes its folder. */
  destroy(): void {
    if (existsSync(path.join(this.dataDir, 'postmaster.pid'))) {
      try {
        this.runSync('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', 'stop']);
      } catch {
        this.runSync('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Random and statistics

/** A seeded generator (mulberry32): the same seed gives the same choices. */
export function randomGenerator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
export type Random = ReturnType<typeof randomGenerator>;

/** The seed from `variable` (to replay a run) or a new random one. */
export function seedFrom(variable: string): number {
  const given = process.env[variable];
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new CheckFailed(`${variable} must be a whole number from 0 to 4294967295, got "${given}".`);
    }
    return seed;
  }
  return randomBytes(4).readUInt32BE(0);
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs `main`, prints a failure plainly and sets the exit code; `cleanup` runs in every case. */
export async function runCheck(name: string, main: () => Promise<void>): Promise<void> {
  const started = performance.now();
  try {
    await main();
    console.log(`\n✔ ${name} passed in ${seconds(performance.now() - started)}.`);
  } catch (error) {
    const message = error instanceof CheckFailed ? error.message : ((error as Error).stack ?? String(error));
    console.error(`\n✖ ${name} failed after ${seconds(performance.now() - started)}:\n${message}`);
    process.exitCode = 1;
  }
}

/** Each stored counter against its rows: one row per counter with how many rows it is wrong on (crash, cluster). */
export const COUNTER_CHECKS = `
  select 'users.post_count' as counter, count(*)::int as wrong from users u
    where u.post_count <> (select count(*) from posts p where p.author_id = u.id)
  union all select 'users.follower_count', count(*)::int from users u
    where u.follower_count <> (select count(*) from follows f where f.followee_id = u.id)
  union all select 'users.following_count', count(*)::int from users u
    where u.following_count <> (select count(*) from follows f where f.follower_id = u.id)
  union all select 'users.bookmark_count', count(*)::int from users u
    where u.bookmark_count <> (select count(*) from bookmarks b where b.user_id = u.id)
  union all select 'posts.like_count', count(*)::int from posts p
    where p.like_count <> (select count(*) from post_reactions r where r.post_id = p.id and r.kind = 'like')
  union all select 'posts.dislike_count', count(*)::int from posts p
    where p.dislike_count <> (select count(*) from post_reactions r where r.post_id = p.id and r.kind = 'dislike')
  union all select 'posts.comment_count', count(*)::int from posts p
    where p.comment_count <> (select count(*) from comments c where c.post_id = p.id and c.moderation_state is null)
  union all select 'comments.upvote_count', count(*)::int from comments c
    where c.upvote_count <> (select count(*) from comment_votes v where v.comment_id = c.id and v.kind = 'up')
  union all select 'comments.downvote_count', count(*)::int from comments c
    where c.downvote_count <> (select count(*) from comment_votes v where v.comment_id = c.id and v.kind = 'down')`;
