/**
 * Several workers (WORKERS=2, issue 25) against the production build (`npm run build` first), on
 * PostgreSQL (DATABASE_URL, in a database made for the run and dropped after; skipped without it):
 *
 * 1. both worker processes answer (SHARE_ARTS_WORKER_HEADER=1 names the pid that answered; new
 *    connections go to the workers in turn), and neither is the primary;
 * 2. a live socket held by one worker receives the notifications of likes answered by either worker,
 *    and each worker's post cache and search cache, filled before the writes, show them after;
 * 3. kill -9 of one worker: requests go on being answered by the other, a new worker replaces it, and
 *    both answer again;
 * 4. SIGTERM to the primary: every worker drains and exits, then the primary exits 0.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CheckFailed,
  createDatabase,
  dropDatabase,
  errorCode,
  freePort,
  freshDatabaseName,
  request,
  runCheck,
  signUpUsers,
  sleep,
  startServer,
  tail,
  tempDir,
  type Answer,
} from './lib.js';

const WORKER_HEADER = 'x-share-arts-worker';

/** The pids of `pid`'s child processes (its workers). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function main() {
  const adminUrl = process.env.DATABASE_URL || undefined;
  if (!adminUrl) {
    console.log('Skipped: several workers need PostgreSQL; set DATABASE_URL to run this check.');
    return;
  }
  const dataDir = tempDir('workers');
  const logFile = path.join(dataDir, 'server.log');
  const databaseName = freshDatabaseName('workers');
  const databaseUrl = await createDatabase(adminUrl, databaseName);
  const server = await startServer({
    port: await freePort(),
    dataDir,
    databaseUrl,
    logFile,
    env: { WORKERS: '2', SHARE_ARTS_WORKER_HEADER: '1', LOG_LEVEL: 'info' },
  });
  const lines: string[] = [];
  try {
    // A new connection per request: the primary hands each to the next worker.
    const fresh = (method: string, pathname: string, options: Parameters<typeof request>[3] = {}) =>
      request(server.url, method, pathname, { ...options, headers: { ...options.headers, connection: 'close' } });
    const pidOf = (answer: Answer) => Number(answer.headers[WORKER_HEADER]);
    /** The same request answered by each worker: new connections until both have answered it. */
    const onEach = async (pathname: string, token?: string) => {
      const answers = new Map<number, Answer>();
      for (let i = 0; i < 40 && answers.size < 2; i += 1) {
        const answer = await fresh('GET', pathname, { token });
        answers.set(pidOf(answer), answer);
      }
      if (answers.size < 2) throw new CheckFailed(`GET ${pathname} was answered by one worker only.`);
      return [...answers.values()];
    };

    // 1. Both workers answer.
    const workers = childrenOf(server.pid);
    if (workers.length !== 2)
      throw new CheckFailed(`WORKERS=2 started ${workers.length} processes: ${workers.join(', ')}`);
    const answered = new Set<number>();
    // The first answer may come before the other worker listens: each starts on its own.
    for (const started = performance.now(); answered.size < 2 && performance.now() - started < 60_000;) {
      answered.add(pidOf(await fresh('GET', '/api/health')));
      if (answered.size < 2) await sleep(50);
    }
    if (answered.size !== 2 || ![...answered].every((pid) => workers.includes(pid))) {
      throw new CheckFailed(`Answers came from ${[...answered].join(', ')}; the workers are ${workers.join(', ')}.`);
    }
    lines.push(
      `- Started in ${(server.startMs / 1000).toFixed(1)} s: primary ${server.pid}, workers ${workers.join(' and ')}; both answered.`,
    );

    // 2. A live socket on one worker hears of likes answered by either.
    const [author, ...likers] = await signUpUsers(server.url, `wk${Date.now().toString(36).slice(-5)}_`, 7);
    const post = await fresh('POST', '/api/posts', { token: author!.token, body: { content: 'Across workers' } });
    if (post.status !== 201) throw new CheckFailed(`Creating a post answered ${post.status}.`);
    const postId: string = post.body.post._id;
    // Each worker's caches hold the post with no like, and a search with nothing found.
    const word = `crossworker${Date.now().toString(36)}`;
    const likesOn = async () => (await onEach(`/api/posts/${postId}`)).map((a) => a.body.post?.likes?.likeCount);
    const foundOn = async () =>
      (await onEach(`/api/search?type=posts&q=${word}`, author!.token)).map((a) => a.body.posts?.length);
    if ((await likesOn()).some((n) => n !== 0)) throw new CheckFailed('A new post has likes.');
    if ((await foundOn()).some((n) => n !== 0)) throw new CheckFailed(`A search for ${word} found posts before any.`);
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/live`);
    const notifications: string[] = [];
    let notified: (() => void) | undefined;
    const ready = new Promise<void>((resolve, reject) => {
      socket.addEventListener('error', () => reject(new CheckFailed('The live socket did not open.')), { once: true });
      socket.addEventListener(
        'open',
        () => socket.send(JSON.stringify({ type: 'hello', token: author!.token, posts: [postId] })),
        { once: true },
      );
      socket.addEventListener('message', ({ data }) => {
        const frame = JSON.parse(String(data)) as { type: string; kind?: string };
        if (frame.type === 'ready') resolve();
        if (frame.type === 'notification' && frame.kind === 'like') {
          notifications.push(frame.kind);
          notified?.();
        }
      });
    });
    await ready;
    const likedBy = new Map<number, number>();
    for (const liker of likers) {
      const heard = new Promise<void>((resolve) => (notified = resolve));
      const like = await fresh('POST', `/api/posts/like/${postId}`, { token: liker.token });
      if (like.status !== 201) throw new CheckFailed(`A like answered ${like.status}: ${JSON.stringify(like.body)}`);
      likedBy.set(pidOf(like), (likedBy.get(pidOf(like)) ?? 0) + 1);
      const timeout = sleep(5000).then(() => 'timeout');
      if ((await Promise.race([heard, timeout])) === 'timeout') {
        throw new CheckFailed(`The live socket heard no notification of the like answered by worker ${pidOf(like)}.`);
      }
    }
    socket.close();
    if (likedBy.size !== 2) throw new CheckFailed(`Every like was answered by one worker (${[...likedBy.keys()]}).`);
    // Events reach the other worker through PostgreSQL a moment after the commit.
    const settle = async (read: () => Promise<unknown[]>, want: unknown) => {
      let seen = await read();
      for (let waited = 0; seen.some((v) => v !== want) && waited < 3000; waited += 100) {
        await sleep(100);
        seen = await read();
      }
      return seen;
    };
    const likes = await settle(likesOn, likers.length);
    if (likes.some((n) => n !== likers.length)) {
      throw new CheckFailed(`After ${likers.length} likes the workers' cached post shows ${likes.join(' and ')}.`);
    }
    const written = await fresh('POST', '/api/posts', { token: author!.token, body: { content: `Found by ${word}` } });
    if (written.status !== 201) throw new CheckFailed(`Creating a post answered ${written.status}.`);
    const found = await settle(foundOn, 1);
    if (found.some((n) => n !== 1))
      throw new CheckFailed(`The workers' searches for ${word} found ${found.join(' and ')}.`);
    lines.push(
      `- One live socket heard all ${notifications.length} like notifications, from likes answered by both workers (${[
        ...likedBy,
      ]
        .map(([pid, n]) => `${n} by ${pid}`)
        .join(
          ', ',
        )}); both workers' cached post then showed ${likers.length} likes, and both searches found a post written through worker ${pidOf(written)}.`,
    );

    // 3. kill -9 of one worker: the other answers meanwhile, and a new one replaces it. A connection the
    // primary hands to the worker in the instant it dies, before it learns of the death, is lost with
    // it (node:cluster's round-robin): a request sent then times out, and is counted apart.
    const victim = workers[0]!;
    const killedAt = performance.now();
    process.kill(victim, 'SIGKILL');
    const statuses = new Map<string, number>();
    const lostAtOnce: string[] = [];
    let replacedMs: number | undefined;
    let replacement: number | undefined;
    while (performance.now() - killedAt < 20_000) {
      const sentMs = performance.now() - killedAt;
      const answer = await fresh('GET', '/api/posts?limit=5', { timeoutMs: 2000 }).catch((error: unknown) =>
        errorCode(error),
      );
      const key = typeof answer === 'string' ? answer : String(answer.status);
      if (key !== '200' && sentMs < 100) lostAtOnce.push(`${key} (sent ${sentMs.toFixed(1)} ms after the kill)`);
      else statuses.set(key, (statuses.get(key) ?? 0) + 1);
      const now = childrenOf(server.pid).filter((pid) => pid !== victim && !workers.includes(pid));
      if (now.length > 0 && replacement === undefined) {
        replacement = now[0];
        replacedMs = performance.now() - killedAt;
      }
      if (replacement !== undefined && typeof answer !== 'string' && pidOf(answer) === replacement) break;
      await sleep(20);
    }
    const answeredDuring = [...statuses].map(([status, n]) => `${status} × ${n}`).join(', ');
    if (replacement === undefined) throw new CheckFailed(`No worker replaced the killed one in 20 s.`);
    const failed = [...statuses].filter(([status]) => status !== '200').reduce((n, [, count]) => n + count, 0);
    if (failed > 0) throw new CheckFailed(`While a worker was replaced, requests answered: ${answeredDuring}.`);
    if (lostAtOnce.length > 2) throw new CheckFailed(`Requests lost with the worker: ${lostAtOnce.join(', ')}.`);
    const after = new Set<number>();
    for (let i = 0; i < 20 && after.size < 2; i += 1) {
      after.add(pidOf(await fresh('GET', '/api/health')));
      if (after.size < 2) await sleep(50);
    }
    if (!after.has(replacement) || !after.has(workers[1]!)) {
      throw new CheckFailed(`After the replacement, answers came from ${[...after].join(', ')}.`);
    }
    lines.push(
      `- kill -9 of worker ${victim}: worker ${replacement} replaced it after ${replacedMs!.toFixed(0)} ms and answered; ` +
        `requests meanwhile (one new connection each): ${answeredDuring}; lost with the worker: ${lostAtOnce.join(', ') || 'none'}.`,
    );

    // 4. SIGTERM drains every worker, then the primary exits 0.
    const running = childrenOf(server.pid);
    const stopping = performance.now();
    await server.stop();
    const stopMs = performance.now() - stopping;
    if (server.exitCode() !== 0) throw new CheckFailed(`After SIGTERM the primary exited with ${server.exitCode()}.`);
    const left = running.filter(alive);
    if (left.length > 0) throw new CheckFailed(`Workers ${left.join(', ')} still run after the primary exited.`);
    lines.push(
      `- SIGTERM: workers ${running.join(' and ')} drained and exited, then the primary exited 0, in ${stopMs.toFixed(0)} ms.`,
    );
  } catch (error) {
    if (error instanceof CheckFailed) error.message += `\nServer log:\n${tail(logFile)}`;
    throw error;
  } finally {
    if (server.alive()) await server.kill9();
    for (const pid of childrenOf(server.pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await dropDatabase(adminUrl, databaseName).catch(() => {});
    for (const line of lines) console.log(line);
  }
}

await runCheck('Workers check', main);
