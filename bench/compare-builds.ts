/**
 * `npx tsx bench/compare-builds.ts <label>=<checkout> …` with DATABASE_URL: the req/s of several builds of
 * the server side by side on one seeded database (bench:seed), for the routes a change is about. Each
 * checkout is a worktree built with `tsc -b` in apps/server (`git worktree add /tmp/wt-old <commit>`,
 * node_modules linked from the main checkout's). Prints the first page's bytes per build, then loads every
 * route on every build in turn, 10 s at 50 connections, ROUNDS times over (3), and gives each median with
 * its range, and the median p99. ONLY=<part>|<part>… loads only the routes whose name contains one of them.
 * Beside req/s, which the load of other processes on a shared host moves a lot, it gives the CPU time each
 * answer cost the server process and its PostgreSQL backends (from /proc, the backends found by the
 * application_name each server connects with), which that load moves much less.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { hash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { SignJWT } from 'jose';

const DATABASE_URL = process.env.DATABASE_URL!;
const builds = process.argv.slice(2).map((arg) => {
  const [label, dir] = arg.split('=');
  return { label: label!, dir: dir! };
});
const SECRET = randomBytes(32).toString('base64url');
const uuidOf = (text: string) => {
  const hex = hash('md5', text, 'hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
const client = new pg.Client({ connectionString: DATABASE_URL });
await client.connect();
// A session for the token (issue 24), when the database has sessions (a build before them ignores `sid`).
const {
  rows: [tables],
} = await client.query<{ sessions: boolean }>(`select to_regclass('sessions') is not null as sessions`);
const session = tables!.sessions
  ? (
      await client.query<{ id: string }>(
        `insert into sessions (user_id, user_agent) values ($1, 'bench:compare-builds') returning id`,
        [uuidOf('bench-user-1')],
      )
    ).rows[0]
  : undefined;
const token = await new SignJWT({ username: 'bench_1', ...(session ? { sid: session.id } : {}) })
  .setProtectedHeader({ alg: 'HS256' })
  .setSubject(uuidOf('bench-user-1'))
  .setExpirationTime('2h')
  .sign(new TextEncoder().encode(SECRET));

const {
  rows: [hot],
} = await client.query<{ id: string }>('select id from posts order by comment_count desc, like_count desc limit 1');
await client.end();

let port = 4700 + Math.floor(Math.random() * 2000);
const servers: { label: string; url: string; child: ChildProcess }[] = [];
for (const build of builds) {
  port += 1;
  const child = spawn(process.execPath, [path.join(build.dir, 'apps/server/dist/main.js')], {
    cwd: build.dir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'h7-bench-')),
      DATABASE_URL,
      MEDIA_DIR: '',
      JWT_SECRET: SECRET,
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      WORKERS: '1',
      // Its PostgreSQL backends are found by this name (node-postgres reads PGAPPNAME).
      PGAPPNAME: `compare-builds ${build.label}`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => console.log(`${build.label} exited: ${code} ${signal}`));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (i > 300) throw new Error(`${build.label} did not start`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  servers.push({ label: build.label, url, child });
}

const signedIn = { authorization: `Bearer ${token}` };
const signedInMinimal = { ...signedIn, prefer: 'return=minimal' };
type Route = {
  name: string;
  path: string;
  headers: Record<string, string>;
  /** Requests sent in turn (a write and its undo), instead of GET `path`. */
  requests?: { method: 'POST'; path: string; headers: Record<string, string> }[];
};
const routes: Route[] = [
  { name: 'GET /api/posts (first page, signed out)', path: '/api/posts', headers: {} },
  { name: 'GET /api/posts (first page, signed in)', path: '/api/posts', headers: signedIn },
  { name: 'GET /api/posts/{hottest post}', path: `/api/posts/${hot!.id}`, headers: {} },
  { name: 'GET /api/feed (signed in)', path: '/api/feed', headers: signedIn },
  { name: 'GET /api/comments/{hottest post}', path: `/api/comments/${hot!.id}`, headers: {} },
  { name: 'GET /api/search?q=light', path: '/api/search?q=light', headers: {} },
  { name: 'GET /api/users (first page)', path: '/api/users', headers: {} },
  { name: 'GET /api/users/suggestions', path: '/api/users/suggestions', headers: signedIn },
  { name: 'GET /api/notifications', path: '/api/notifications', headers: signedIn },
  {
    name: 'POST like, then dislike, of the hottest post',
    path: `/api/posts/like/${hot!.id}`,
    headers: signedInMinimal,
    requests: [
      { method: 'POST', path: `/api/posts/like/${hot!.id}`, headers: signedInMinimal },
      { method: 'POST', path: `/api/posts/dislike/${hot!.id}`, headers: signedInMinimal },
    ],
  },
];

for (const server of servers) {
  for (const route of routes.slice(0, 2)) {
    const response = await fetch(`${server.url}${route.path}`, { headers: route.headers });
    const body = await response.text();
    const posts = JSON.parse(body).posts as { comments: unknown[] }[];
    console.log(
      `${server.label} ${route.name}: ${body.length} bytes, ${posts.length} posts, ${posts.reduce((n, p) => n + p.comments.length, 0)} comments`,
    );
  }
  await autocannon({ url: `${server.url}/api/posts`, connections: 50, duration: 3 });
}

/** A process's CPU time so far in µs (user + system, in ticks of 10 ms); 0 once it has ended. */
const cpuMicros = (pid: number): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return 0;
  }
};
const monitor = new pg.Client({ connectionString: DATABASE_URL });
await monitor.connect();
/** The server's CPU time and its PostgreSQL backends', per backend pid (a pool may open more meanwhile). */
async function cpuOf(server: (typeof servers)[number]) {
  const { rows } = await monitor.query<{ pid: number }>(
    'select pid from pg_stat_activity where application_name = $1',
    [`compare-builds ${server.label}`],
  );
  return { server: cpuMicros(server.child.pid!), backends: new Map(rows.map(({ pid }) => [pid, cpuMicros(pid)])) };
}
const cpuSpent = async (server: (typeof servers)[number], before: Awaited<ReturnType<typeof cpuOf>>) => {
  const after = await cpuOf(server);
  let database = 0;
  for (const [pid, micros] of after.backends) database += micros - (before.backends.get(pid) ?? 0);
  return { server: after.server - before.server, database };
};

const results = new Map<string, number[]>();
const p99s = new Map<string, number[]>();
const cpus = new Map<string, { server: number; database: number }[]>();
const only = process.env.ONLY?.split('|');
for (let round = 1; round <= Number(process.env.ROUNDS ?? 3); round++) {
  for (const route of routes.filter((r) => !only || only.some((part) => r.name.includes(part)))) {
    for (const server of servers) {
      const cpuBefore = await cpuOf(server);
      const result = await autocannon({
        url: `${server.url}${route.path}`,
        headers: route.headers,
        ...(route.requests ? { requests: route.requests } : {}),
        connections: 50,
        duration: 10,
      });
      const key = `${route.name}|${server.label}`;
      results.set(key, [...(results.get(key) ?? []), result.requests.average]);
      p99s.set(key, [...(p99s.get(key) ?? []), result.latency.p99]);
      const spent = await cpuSpent(server, cpuBefore);
      const perAnswer = {
        server: spent.server / Math.max(1, result.requests.total),
        database: spent.database / Math.max(1, result.requests.total),
      };
      cpus.set(key, [...(cpus.get(key) ?? []), perAnswer]);
      console.log(
        `round ${round} ${key}: ${result.requests.average} req/s, p99 ${result.latency.p99} ms, CPU per answer ${Math.round(perAnswer.server)} µs server + ${Math.round(perAnswer.database)} µs PostgreSQL, non-2xx ${result.non2xx}, errors ${result.errors}`,
      );
    }
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`\n| route | ${servers.map((s) => s.label).join(' | ')} |`);
for (const route of routes.filter((r) => results.has(`${r.name}|${servers[0]!.label}`))) {
  const cells = servers.map((s) => {
    const samples = results.get(`${route.name}|${s.label}`)!;
    const p99 = median(p99s.get(`${route.name}|${s.label}`)!);
    const cpu = cpus.get(`${route.name}|${s.label}`)!;
    const server = Math.round(median(cpu.map((c) => c.server)));
    const database = Math.round(median(cpu.map((c) => c.database)));
    return `${Math.round(median(samples))} (${Math.round(Math.min(...samples))}-${Math.round(Math.max(...samples))}), p99 ${p99} ms, ${server} + ${database} µs`;
  });
  console.log(`| ${route.name} | ${cells.join(' | ')} |`);
}
await monitor.end();
for (const server of servers) server.child.kill();
