import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * Throw-away PostgreSQL clusters for tests that need a server of their own (a primary and its streaming
 * replica, to stop or pause them): made with the machine's PostgreSQL binaries under a temp folder, on
 * free ports, never touching the shared server. As root, the tools run as the `postgres` user, as
 * reliability/lib.ts's PrivateCluster does.
 */

/** The newest PostgreSQL's bin folder, or why there is none (tests skip with that message). */
export function postgresBinaries(): { bin: string } | { missing: string } {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) return { missing: `no PostgreSQL binaries under ${base} (install postgresql)` };
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) {
    return { missing: 'running as root, but there is no postgres user to run initdb as' };
  }
  return { bin: path.join(base, versions[0], 'bin') };
}

/** A port nobody listens on, from `preferred` first (a helper's own range), else any. */
async function freePort(preferred: number[]): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | undefined>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(undefined));
      server.listen(port, '127.0.0.1', () => {
        const { port: bound } = server.address() as net.AddressInfo;
        server.close(() => resolve(bound));
      });
    });
  for (const port of preferred) {
    const free = await tryPort(port);
    if (free) return free;
  }
  return (await tryPort(0))!;
}

export class TestCluster {
  private constructor(
    private readonly bin: string,
    readonly dir: string,
    readonly port: number,
  ) {}

  get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  /** The connection URL of `database` on this cluster. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private static async folder(prefix: string): Promise<string> {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    if (process.getuid?.() === 0) {
      const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
      const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
      chownSync(dir, uid, gid);
    }
    return dir;
  }

  /** A new primary, initialised and started, that streams its WAL to replicas. */
  static async primary(bin: string, ports: number[] = []): Promise<TestCluster> {
    const cluster = new TestCluster(bin, await TestCluster.folder('pg-primary-'), await freePort(ports));
    await cluster.run('initdb', ['-D', cluster.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    await cluster.start();
    return cluster;
  }

  /** A streaming replica of `primary` (pg_basebackup -R), started in hot standby. */
  static async replicaOf(primary: TestCluster, ports: number[] = []): Promise<TestCluster> {
    const cluster = new TestCluster(primary.bin, await TestCluster.folder('pg-replica-'), await freePort(ports));
    await cluster.run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      cluster.dataDir,
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ]);
    await cluster.start();
    return cluster;
  }

  /** Starts it and waits until it accepts connections (read-only ones, for a standby). */
  start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      `-k ${this.dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c wal_level=replica',
      '-c max_wal_senders=5',
      '-c hot_standby=on',
      '-c fsync=off',
      // PostgreSQL's default, which docs/deploy.md counts on: a process holds up to 15 (its pool, the job
      // queue's 3, two LISTENs); at 40, reliability/cluster.ts's three processes were refused connections.
      '-c max_connections=100',
      '-c shared_buffers=16MB',
    ].join(' ');
    const log = path.join(this.dir, 'log');
    return this.run('pg_ctl', ['-D', this.dataDir, '-l', log, '-o', options, '-w', '-t', '60', 'start']);
  }

  /** Stops it at once (no checkpoint), as a machine that goes away. */
  stop(): Promise<void> {
    return this.run('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
  }

  /** Stops it if it runs and removes its folder. */
  destroy(): void {
    if (existsSync(path.join(this.dataDir, 'postmaster.pid'))) {
      const [command, argv] = this.command('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
      spawnSync(command, argv);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private command(tool: string, args: string[]): [string, string[]] {
    const command = path.join(this.bin, tool);
    return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  }

  private run(tool: string, args: string[]): Promise<void> {
    const [command, argv] = this.command(tool, args);
    return new Promise((resolve, reject) => {
      execFile(command, argv, { cwd: this.dir }, (error, stdout, stderr) =>
        error ? reject(new Error(`${tool} ${args.join(' ')} failed:\n${stdout}${stderr}`)) : resolve(),
      );
    });
  }
}
