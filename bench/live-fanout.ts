/**
 * `npx tsx --conditions=source bench/live-fanout.ts --database <url> [--sockets 200] [--likes 300]`: what one
 * live event costs the server per socket it reaches (issue 25, docs/scaling.md). Starts the built server
 * (`npm run build` first) on a seeded PostgreSQL database (bench:seed), then likes and unlikes one post
 * `--likes` times with no socket open, and again with `--sockets` sockets watching that post; the server
 * process's CPU time (user + system, from /proc) of each phase, their difference, and the frames the
 * sockets received give the CPU each delivered frame costs. All sockets come from 127.0.0.1, and one
 * address may hold 256 connections (plugins/connections.ts), so `--sockets` stays under 250.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startProductionServer } from './server.js';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    sockets: { type: 'string', default: '200' },
    likes: { type: 'string', default: '300' },
  },
});
const DATABASE_URL = values.database ?? process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('Pass --database postgres://… (a database filled by npm run bench:seed).');
const SOCKETS = Number(values.sockets);
if (!(SOCKETS >= 1 && SOCKETS <= 250))
  throw new Error('--sockets must be 1 to 250: one address may hold 256 connections.');
const LIKES = Number(values.likes);
// The built server on that database (rate limits off, one process), with a secret of this run's.
const { url, pid, stop } = await startProductionServer({
  DATABASE_URL,
  JWT_SECRET: 'fan-out-benchmark-secret-0123456789abcdef',
});
// A failure below still stops it (the kill is sent at once).
process.on('exit', () => void stop());

/** The server process's CPU time so far, in ms (user + system; /proc counts in ticks of 10 ms). */
const serverCpuMs = () => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

async function signUp(name: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      fullname: 'Fan Out',
      email: `${name}@example.com`,
      username: name,
      password: 'correct horse battery',
    }),
  });
  if (response.status !== 201) throw new Error(`signup: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { encodedToken: string }).encodedToken;
}

const client = new pg.Client({ connectionString: DATABASE_URL });
await client.connect();
const {
  rows: [post],
} = await client.query<{ id: string }>('select id from posts order by created_at desc limit 1');
await client.end();
const run = Date.now().toString(36);
const liker = await signUp(`fan_${run}_liker`);

async function likes(): Promise<number> {
  const before = serverCpuMs();
  for (let i = 0; i < LIKES; i++) {
    for (const action of ['like', 'dislike']) {
      const response = await fetch(`${url}/api/posts/${action}/${post!.id}`, {
        method: 'POST',
        headers: { authorization: liker },
      });
      if (response.status >= 500) throw new Error(`${action}: ${response.status}`);
      await response.arrayBuffer();
    }
  }
  // The last counts batch (25 ms) and its frames.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return serverCpuMs() - before;
}

const alone = await likes();

// Five sockets per account (LIVE.connectionsPerUser), opened twenty at a time (the unauthenticated cap).
let frames = 0;
const sockets: WebSocket[] = [];
for (let opened = 0; opened < SOCKETS;) {
  const token = await signUp(`fan_${run}_${opened}`);
  const batch = Array.from({ length: Math.min(5, SOCKETS - opened) }, async () => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/live`);
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve, { once: true });
      socket.addEventListener('error', () => reject(new Error(`${socket.url} did not open`)), { once: true });
    });
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('message', ({ data }) => {
        const frame = JSON.parse(String(data)) as { type: string };
        if (frame.type === 'ready') resolve();
        else if (frame.type === 'error') reject(new Error(String(data)));
        else if (frame.type === 'counts') frames += 1;
      });
      socket.send(JSON.stringify({ type: 'hello', token, posts: [post!.id] }));
    });
    sockets.push(socket);
  });
  await Promise.all(batch);
  opened += batch.length;
}
await new Promise((resolve) => setTimeout(resolve, 1000));
frames = 0;
const watched = await likes();
const extra = watched - alone;
console.log(
  JSON.stringify(
    {
      sockets: SOCKETS,
      likesAndUnlikes: LIKES * 2,
      serverCpuMsWithoutSockets: alone,
      serverCpuMsWithSockets: watched,
      countsFramesReceived: frames,
      cpuUsPerFrame: Math.round((extra * 1000) / Math.max(1, frames)),
      cpuUsPerEventForAllSockets: Math.round((extra * 1000) / (LIKES * 2)),
      cpuUsPerLikeWithoutSockets: Math.round((alone * 1000) / (LIKES * 2)),
    },
    null,
    2,
  ),
);
for (const socket of sockets) socket.close();
await stop();
process.exit(0);
