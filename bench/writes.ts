/**
 * `npx tsx --conditions=source bench/writes.ts --database <url> [--checkout label=dir …] [--only part]
 *  [--duration 10] [--rounds 1] [--pgbench-clients 50] [--cpu-prof dir]` (issue 26): where a write's time goes.
 *
 * Starts the built server (or each `--checkout`'s build, side by side: a `git worktree` of another commit,
 * built with `tsc -b` in apps/server) and loads the write scenarios of bench/write-scenarios.ts with
 * autocannon at 50 connections. Meanwhile it samples pg_stat_activity every 50 ms and tallies what the
 * database's active client backends wait on ("CPU" when they wait on nothing), and reads the CPU time of
 * the server process and of the database's backends from /proc: CPU per request, in ms.
 *
 * Then the same SQL without the server: the statements one like and one dislike (one follow and one
 * unfollow) send, captured from the server as it answers them (bench/sql-capture.mjs), become a pgbench
 * script in which each client is one bench user on a row of its own, as in the mixes; pgbench runs it at
 * `--pgbench-clients` clients, once as captured and once with every pg_notify(…) replaced by
 * num_nonnulls(…) (the same values computed, nothing sent), with the same sampling. After everything,
 * every touched post's and user's counters are checked against their rows.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { SignJWT } from 'jose';
import { startProductionServer, type RunningServer } from './server.js';
import { benchUserId, checkCounts, writeTargets } from './write-scenarios.js';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    checkout: { type: 'string', multiple: true },
    only: { type: 'string', multiple: true },
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '1' },
    'pgbench-clients': { type: 'string', default: '50' },
    'no-pgbench': { type: 'boolean', default: false },
    // A folder for each server's CPU profile (node --cpu-prof), written when it stops: bench/profile-summary.ts reads it.
    'cpu-prof': { type: 'string' },
  },
});
const DATABASE_URL = values.database ?? process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('Pass --database postgres://… (a database filled by npm run bench:seed).');
const DURATION = Number(values.duration);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = 50;
const PGBENCH_CLIENTS = Number(values['pgbench-clients']);
const SECRET = randomBytes(32).toString('base64url');
const checkouts = (values.checkout ?? ['current=.']).map((arg) => {
  const [label, dir] = arg.includes('=') ? arg.split('=') : [arg, arg];
  return { label: label!, dir: path.resolve(dir!) };
});
const captureDir = mkdtempSync(path.join(os.tmpdir(), 'share-arts-writes-'));

const db = new pg.Client({ connectionString: DATABASE_URL });
await db.connect();
const targets = await writeTargets(db, CONNECTIONS);
const scenarios = targets.scenarios.filter((s) => !values.only || values.only.some((part) => s.name.includes(part)));

/** CPU time (user + system) of a process so far in ms, 0 once it is gone. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    return 0;
  }
}

/** The machine's busy share of CPU between two readings of /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const numbers = fields.map(Number);
  const idle = numbers[3]! + numbers[4]!;
  const total = numbers.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * Samples the database's active client backends every 50 ms until `stop`: the share of samples in each
 * wait event ("CPU" for none), and the CPU time of every backend seen, from its first sighting on.
 */
function sampleWaits() {
  const tally = new Map<string, number>();
  let samples = 0;
  const backends = new Map<number, number>();
  let running = true;
  const sampler = new pg.Client({ connectionString: DATABASE_URL });
  const done = (async () => {
    await sampler.connect();
    // The backends already connected (a pool's idle connections) count from now.
    const all = await sampler.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    );
    for (const { pid } of all.rows) backends.set(pid, cpuMs(pid));
    while (running) {
      const { rows } = await sampler.query<{ pid: number; type: string | null; event: string | null }>(
        `select pid, wait_event_type as type, wait_event as event from pg_stat_activity
         where datname = current_database() and backend_type = 'client backend' and state = 'active'
           and pid <> pg_backend_pid()`,
      );
      samples += 1;
      for (const row of rows) {
        if (!backends.has(row.pid)) backends.set(row.pid, cpuMs(row.pid));
        const key = row.type ? `${row.type}:${row.event}` : 'CPU';
        tally.set(key, (tally.get(key) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await sampler.end();
  })();
  return async () => {
    running = false;
    await done;
    const backendCpu = [...backends].reduce((sum, [pid, from]) => sum + Math.max(0, cpuMs(pid) - from), 0);
    const seen = [...tally.values()].reduce((a, b) => a + b, 0);
    const waits = [...tally]
      .sort((a, b) => b[1] - a[1])
      .map(([key, n]) => `${key} ${((100 * n) / seen).toFixed(0)}%`)
      .slice(0, 6)
      .join(', ');
    return { waits, activePerSample: seen / Math.max(1, samples), backendCpu };
  };
}

interface Measured {
  label: string;
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  serverCpuPerRequest: number;
  dbCpuPerRequest: number;
  machineBusy: number;
  waits: string;
  active: number;
}
const results: Measured[] = [];

function print(m: Measured) {
  console.log(
    `${m.label.padEnd(10)} ${m.scenario.padEnd(44)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50} p99 ${m.p99} ms  non-2xx ${m.non2xx}  ` +
      `CPU/req server ${m.serverCpuPerRequest.toFixed(2)} ms, db ${m.dbCpuPerRequest.toFixed(2)} ms  machine ${(100 * m.machineBusy).toFixed(0)}% busy  ` +
      `active ${m.active.toFixed(1)}: ${m.waits}`,
  );
}

/** Runs `load` while sampling; answers the figures per request (requests = what `load` answers). */
async function measured(
  label: string,
  scenario: string,
  serverPid: number | undefined,
  load: () => Promise<{ requests: number; seconds: number; p50: number; p99: number; non2xx: number }>,
) {
  const stop = sampleWaits();
  const serverFrom = serverPid ? cpuMs(serverPid) : 0;
  const machineFrom = machineTicks();
  const result = await load().catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  const machineTo = machineTicks();
  const serverCpu = serverPid ? cpuMs(serverPid) - serverFrom : 0;
  const { waits, activePerSample, backendCpu } = await stop();
  const m: Measured = {
    label,
    scenario,
    rps: result.requests / result.seconds,
    p50: result.p50,
    p99: result.p99,
    non2xx: result.non2xx,
    serverCpuPerRequest: serverCpu / Math.max(1, result.requests),
    dbCpuPerRequest: backendCpu / Math.max(1, result.requests),
    machineBusy: (machineTo.busy - machineFrom.busy) / Math.max(1, machineTo.total - machineFrom.total),
    waits,
    active: activePerSample,
  };
  results.push(m);
  print(m);
}

const token = (n: number, sid: string) =>
  new SignJWT({ username: `bench_${n}`, sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(benchUserId(n))
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));

interface Started {
  label: string;
  server: RunningServer;
  capture: string;
  headers: (user: number) => Record<string, string>;
}

async function start(label: string, dir: string): Promise<Started> {
  const capture = path.join(captureDir, `${label}.jsonl`);
  writeFileSync(capture, '');
  const server = await startProductionServer(
    {
      DATABASE_URL: DATABASE_URL!,
      JWT_SECRET: SECRET,
      BENCH_ROUTES: '1',
      SQL_CAPTURE: capture,
      NODE_OPTIONS: `--import ${path.resolve(import.meta.dirname, 'sql-capture.mjs')}`,
    },
    {
      checkout: dir,
      nodeFlags: values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'], label)}`] : [],
    },
  );
  const tokens = new Map<number, string>();
  for (let user = 2; user < 2 + CONNECTIONS; user++) {
    const { rows } = await db.query<{ id: string }>(
      `insert into sessions (user_id, user_agent) values ($1, 'bench:writes') returning id`,
      [benchUserId(user)],
    );
    tokens.set(user, await token(user, rows[0]!.id));
  }
  await autocannon({ url: `${server.url}/api/posts`, connections: CONNECTIONS, duration: 3 });
  return { label, server, capture, headers: (user) => ({ authorization: `Bearer ${tokens.get(user)}` }) };
}

/** Captures the statements of one pass of `scenario` by user 2 (after one pass that warms the caches). */
async function captureSql(
  started: Started,
  requests: { method: string; path: string; headers?: Record<string, string> }[],
) {
  const send = async () => {
    for (const request of requests) {
      const response = await fetch(`${started.server.url}${request.path}`, {
        method: request.method,
        headers: { ...request.headers, ...started.headers(2) },
      });
      await response.arrayBuffer();
    }
  };
  await send();
  await send();
  const before = readFileSync(started.capture, 'utf8').length;
  process.kill(started.server.pid, 'SIGUSR2');
  await new Promise((resolve) => setTimeout(resolve, 100));
  await send();
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.kill(started.server.pid, 'SIGUSR2');
  const statements = readFileSync(started.capture, 'utf8')
    .slice(before)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { text: string; values: unknown[]; pid: number });
  // The outbox relay's connection (issue 26) is not the route's: its statements are left out.
  const relay = new Set(statements.filter((s) => s.text.includes('delete from event_outbox')).map((s) => s.pid));
  return statements.filter((s) => !relay.has(s.pid));
}

const literal = (value: unknown): string =>
  value === null || value === undefined
    ? 'null'
    : typeof value === 'number' || typeof value === 'boolean'
      ? `'${String(value)}'`
      : `'${String(value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : value).replaceAll("'", "''")}'`;

/**
 * A pgbench script of the captured statements, each client a user of its own (`:u`, 2 to 51): user 2's
 * id becomes `md5('bench-user-' || (:u)::int)::uuid`, and an id of user 2's row (its post, whom it follows)
 * the same expression of that row's number; every other value a literal.
 */
function pgbenchScript(statements: { text: string; values: unknown[] }[], ids: Map<string, string>, notify: boolean) {
  const lines = [`\\set u 2 + (:client_id % ${CONNECTIONS})`];
  for (const { text, values: params } of statements) {
    let statement = text.replace(/\$(\d+)/g, (_, n: string) => {
      const value = params[Number(n) - 1];
      return typeof value === 'string' && ids.has(value) ? ids.get(value)! : literal(value);
    });
    if (!notify) statement = statement.replaceAll('pg_notify(', 'num_nonnulls(');
    // pgbench takes `:alnum` in a regular expression's `[:alnum:]` for a variable (and, prepared, a parameter):
    // the same string literal, with that colon outside pgbench's sight.
    statement = statement.replaceAll('[:', "[' || ':' || '");
    lines.push(`${statement.replace(/\s*;?\s*$/, '')};`);
  }
  return `${lines.join('\n')}\n`;
}

function pgbench(
  script: string,
  name: string,
): Promise<{ requests: number; seconds: number; p50: number; p99: number; non2xx: number }> {
  const file = path.join(captureDir, `${name}.sql`);
  writeFileSync(file, script);
  return new Promise((resolve, reject) => {
    const child = spawn(
      'pgbench',
      [
        '-n',
        // Each statement prepared once per client, as the server prepares its statements on each connection.
        '-M',
        'prepared',
        '-c',
        String(PGBENCH_CLIENTS),
        '-j',
        '2',
        '-T',
        String(DURATION),
        '-f',
        file,
        DATABASE_URL!,
      ],
      // As the server's connections do (issue 26): share_arts_publish writes to the outbox, which the servers' relays send.
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PGOPTIONS: '-c share_arts.outbox=on' } },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => {
      const tps = /tps = ([\d.]+)/.exec(out);
      const latency = /latency average = ([\d.]+) ms/.exec(out);
      const failed = /number of failed transactions: (\d+)/.exec(out);
      if (code !== 0 || !tps) return reject(new Error(`pgbench failed (${code}):\n${out}`));
      // One script run is both requests of the pair (like and dislike): two requests.
      resolve({
        requests: 2 * Number(tps[1]) * DURATION,
        seconds: DURATION,
        p50: Number(latency?.[1] ?? 0) / 2,
        p99: Number.NaN,
        non2xx: Number(failed?.[1] ?? 0),
      });
    });
  });
}

const started: Started[] = [];
for (const { label, dir } of checkouts) started.push(await start(label, dir));

for (let round = 1; round <= ROUNDS; round++) {
  for (const scenario of scenarios) {
    for (const s of started) {
      let connection = 0;
      await measured(s.label, scenario.name, s.server.pid, async () => {
        const result = await autocannon({
          url: s.server.url,
          connections: CONNECTIONS,
          duration: DURATION,
          requests: [{ method: 'GET', path: '/api/bench/hello' }],
          setupClient: (client: autocannon.Client) => {
            const user = (connection++ % CONNECTIONS) + 2;
            client.setRequests(
              scenario
                .requests(user)
                .map((request) => ({ ...request, headers: { ...request.headers, ...s.headers(user) } })),
            );
          },
        });
        return {
          requests: result.requests.total,
          seconds: result.duration,
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx,
        };
      });
    }
  }
}

if (!values['no-pgbench']) {
  const {
    rows: [sizes],
  } = await db.query<{ users: number }>('select count(*)::int as users from users');
  const followBase = Math.floor((sizes!.users - 5) / 2);
  for (const s of started) {
    for (const scenario of targets.scenarios.filter((t) => t.name.includes('mix'))) {
      if (values.only && !values.only.some((part) => scenario.name.includes(part))) continue;
      const statements = await captureSql(s, scenario.requests(2));
      console.log(`\n${s.label}: the SQL of one ${scenario.name} pair (${statements.length} statements):`);
      for (const { text } of statements) console.log(`  ${text.replace(/\s+/g, ' ').slice(0, 150)}`);
      const ids = new Map([
        // (:u)::int: in pgbench's prepared mode :u is a parameter, whose type `||` alone cannot tell.
        [benchUserId(2), `md5('bench-user-' || (:u)::int)::uuid`],
        [
          scenario.requests(2)[0]!.path.split('/').at(-1)!,
          scenario.name.startsWith('like')
            ? `md5('bench-post-' || (1000 + (:u)::int))::uuid`
            : `md5('bench-user-' || (${followBase} + (:u)::int))::uuid`,
        ],
      ]);
      // Without pg_notify too, when the route sends any (before the outbox).
      const notifies = statements.some((statement) => statement.text.includes('pg_notify('));
      for (const notify of notifies ? [true, false] : [true]) {
        const name = `pgbench: ${scenario.name}${notify ? '' : ', pg_notify → num_nonnulls'}`;
        const script = pgbenchScript(statements, ids, notify);
        // A replay pgbench cannot run (an older build's statement it cannot prepare) is reported, and the rest goes on.
        await measured(s.label, name, undefined, () =>
          pgbench(script, `${s.label}-${scenario.name.split('/')[0]}-${notify}`),
        ).catch((error: Error) => console.log(`${s.label} ${name}: not measured, ${error.message.split('\n')[0]}`));
      }
    }
  }
  console.log(`\n(pgbench scripts in ${captureDir})`);
}

for (const s of started) await s.server.stop();
const counts = await checkCounts(db, targets);
await db.end();
console.log(
  `\nCounters: ${counts.checked} posts and users checked against their rows, ${counts.wrong.length} wrong${counts.wrong.length ? `:\n${counts.wrong.join('\n')}` : '.'}`,
);
console.log(
  `load average at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  '\n| build | scenario | req/s | p50 ms | p99 ms | non-2xx | server CPU ms/req | db CPU ms/req | machine busy | active backends | wait events (share of samples) |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const m of results) {
  console.log(
    `| ${m.label} | ${m.scenario} | ${m.rps.toFixed(0)} | ${m.p50} | ${Number.isNaN(m.p99) ? '–' : m.p99} | ${m.non2xx} | ${m.serverCpuPerRequest ? m.serverCpuPerRequest.toFixed(2) : '–'} | ${m.dbCpuPerRequest.toFixed(2)} | ${(100 * m.machineBusy).toFixed(0)}% | ${m.active.toFixed(1)} | ${m.waits} |`,
  );
}
if (ROUNDS > 1) {
  const median = (numbers: number[]) => {
    const sorted = [...numbers].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  console.log(`\nMedians of ${ROUNDS} rounds (req/s range in brackets):\n`);
  console.log('| build | scenario | req/s | req/s range | p99 ms | server CPU ms/req | db CPU ms/req |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  const keys = [...new Set(results.map((m) => `${m.label}\u0000${m.scenario}`))];
  for (const key of keys) {
    const [label, scenario] = key.split('\u0000');
    const runs = results.filter((m) => m.label === label && m.scenario === scenario);
    const rps = runs.map((m) => m.rps);
    console.log(
      `| ${label} | ${scenario} | ${median(rps).toFixed(0)} | ${Math.min(...rps).toFixed(0)}–${Math.max(...rps).toFixed(0)} | ${median(runs.map((m) => m.p99))} | ${median(runs.map((m) => m.serverCpuPerRequest)).toFixed(2)} | ${median(runs.map((m) => m.dbCpuPerRequest)).toFixed(2)} |`,
    );
  }
}
if (counts.wrong.length) process.exitCode = 1;
