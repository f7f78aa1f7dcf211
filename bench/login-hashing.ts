/**
 * `npx tsx --conditions=source bench/login-hashing.ts`: how long a media fetch waits while 50 logins
 * with a wrong password are hashed at once (scrypt at the production cost, 2^15). scrypt and file reads
 * share libuv's thread pool, so unbounded hashing queues every file read behind it. Prints, per round,
 * the fetch latencies before and during the logins and how long the 50 logins took.
 */
import type { AddressInfo } from 'node:net';
import { TEST_CREDENTIALS } from '@share-arts/contract';
import { createTestApp } from '../apps/server/src/test/helpers.js';

const LOGINS = 50;
const ROUNDS = 3;

const ctx = await createTestApp({
  seed: true,
  config: { passwordHashCost: 2 ** 15, checkResponses: false, logLevel: 'error' },
});
await ctx.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
const feed = (await (await fetch(`${base}/api/posts`)).json()) as { posts: { image?: string; imageUrl?: string }[] };
const picture = JSON.stringify(feed).match(/\/media\/[0-9a-f-]{36}-[A-Za-z0-9.-]+/)?.[0];
if (!picture) throw new Error('No picture URL in the sample posts.');

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!.toFixed(0);
  return `n=${sorted.length} median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`;
};

async function fetchPicture(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}${picture}`);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${picture}: ${response.status}`);
  return performance.now() - started;
}

const login = () =>
  fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: TEST_CREDENTIALS.username, password: 'not-the-password' }),
  }).then((response) => {
    if (response.status !== 401) throw new Error(`login: ${response.status}`);
  });

for (let round = 1; round <= ROUNDS; round++) {
  const idle: number[] = [];
  for (let i = 0; i < 20; i++) idle.push(await fetchPicture());
  const started = performance.now();
  let done = false;
  const logins = Promise.all(Array.from({ length: LOGINS }, login)).finally(() => (done = true));
  const busy: number[] = [];
  // The first fetch leaves just after the logins, as a visitor's would.
  while (!done) busy.push(await fetchPicture());
  await logins;
  const loginsMs = performance.now() - started;
  console.log(
    `round ${round}: picture idle ${stats(idle)}; during ${LOGINS} logins ${stats(busy)}; logins took ${loginsMs.toFixed(0)} ms`,
  );
}
await ctx.close();
