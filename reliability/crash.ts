/**
 * Crash safety. Writers send writes without a pause (posts, likes and dislikes, comments, votes,
 * follows, bookmarks) and record every one the server acknowledged (a 2xx answer). The production
 * server (`npm run build` first) is killed with SIGKILL at random moments, then restarted on the same
 * data; after each restart the database itself is read: every acknowledged write must be there, every
 * counter must equal its rows, and nothing the server refused may have been written. A write whose
 * answer never came (the kill cut it) may or may not be there: both are accepted, and the state found
 * becomes the expected one.
 *
 * 1. PGlite: CRASH_ROUNDS kills (default 5); after each restart the server is stopped cleanly and the
 *    folder opened with PGlite to check it (the folder lock must let the server start again after a
 *    kill -9).
 * 2. PostgreSQL, in a private throw-away cluster under /tmp on a free port (never the machine's shared
 *    server): CRASH_ROUNDS kills of the Node server, checked over a direct connection; then the
 *    database itself is stopped with `pg_ctl stop -m immediate` while the writers go on: every answer
 *    meanwhile must be a 503 with Retry-After, quickly, and the API must recover by itself once the
 *    database is back, with every acknowledged write intact. Any 5xx other than 503 fails.
 *
 * The two parts run side by side, each with its own server, database and random sequence.
 * Env: CRASH_SEED (replay the random moments and choices), CRASH_ROUNDS (default 5), CRASH_PARTS
 * (pglite,postgres: the parts to run; both by default).
 * Run: npx tsx --conditions=source reliability/crash.ts
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { writeReliabilitySection } from '../scripts/reliability-report.mjs';
import {
  type Answer,
  CheckFailed,
  COUNTER_CHECKS,
  createDatabase,
  dropIdleSockets,
  errorCode,
  freePort,
  median,
  postgresBinaries,
  PrivateCluster,
  randomGenerator,
  request,
  runCheck,
  seconds,
  seedFrom,
  signUpUsers,
  sleep,
  startServer,
  tempDir,
  type Random,
  type ServerProcess,
  type SignedUp,
} from './lib.js';

const ROUNDS = Number(process.env.CRASH_ROUNDS || 5);
/** Which parts run (comma-separated): pglite, postgres. Both by default. */
const PARTS = (process.env.CRASH_PARTS || 'pglite,postgres').split(',');
const WRITERS = 6;
/** How long the database stays down in the PostgreSQL outage. */
const OUTAGE_MS = 4000;
/** A 503 must come faster than this while the database is down. */
const MAX_503_MS = 2000;

// ---------------------------------------------------------------------------------------------
// What was written: the ledger

type Outcome = 'acked' | 'refused' | 'doubt' | 'not-sent';
type ToggleType = 'reaction' | 'follow' | 'bookmark' | 'vote';
const EMPTY: Record<ToggleType, string> = { reaction: 'none', follow: 'no', bookmark: 'no', vote: 'none' };

interface Insert {
  kind: 'post' | 'comment';
  /** acked: must be there; doubt: either; refused: must not be there. */
  state: 'acked' | 'doubt' | 'refused';
  id?: string;
}

interface Toggle {
  type: ToggleType;
  /** The state of the last acknowledged write (or as found by the last check). */
  known: string;
  /** States written by requests whose answer never came. */
  doubt: Set<string>;
}

interface Check {
  lost: string[];
  phantoms: string[];
  counters: string[];
  applied: number;
  notApplied: number;
  ms: number;
}

class Ledger {
  readonly inserts = new Map<string, Insert>();
  readonly toggles = new Map<string, Toggle>();
  readonly acked = { post: 0, comment: 0, reaction: 0, follow: 0, bookmark: 0, vote: 0 };
  /** Answers by status ('error' for a cut connection), per phase. */
  readonly statuses = new Map<string, number>();
  /** Writes in doubt: cut (no answer: the kill) or failed (a 5xx: the database went away mid-request). */
  readonly doubts = { cut: 0, failed: 0 };
  private serial = 0;

  constructor(readonly tag: string) {}

  get ackedTotal() {
    return Object.values(this.acked).reduce((a, b) => a + b, 0);
  }

  nextMarker(kind: 'p' | 'c') {
    return `${kind}${++this.serial}`;
  }

  toggle(type: ToggleType, a: string, b: string): Toggle {
    const key = `${type}:${a}:${b}`;
    let toggle = this.toggles.get(key);
    if (!toggle) {
      toggle = { type, known: EMPTY[type], doubt: new Set() };
      this.toggles.set(key, toggle);
    }
    return toggle;
  }
}

/** acked: 2xx; refused: the server answered 4xx (nothing written); doubt: cut or 5xx; not-sent: refused connection. */
async function send(
  base: string,
  ledger: Ledger,
  method: string,
  pathname: string,
  token: string,
  body?: unknown,
): Promise<{ outcome: Outcome; answer?: Answer }> {
  try {
    const answer = await request(base, method, pathname, {
      token,
      body,
      headers: { prefer: 'return=minimal' },
      timeoutMs: 15_000,
    });
    ledger.statuses.set(String(answer.status), (ledger.statuses.get(String(answer.status)) ?? 0) + 1);
    if (answer.status >= 200 && answer.status < 300) return { outcome: 'acked', answer };
    if (answer.status >= 400 && answer.status < 500) return { outcome: 'refused', answer };
    return { outcome: 'doubt', answer };
  } catch (error) {
    if (errorCode(error) === 'ECONNREFUSED') return { outcome: 'not-sent' };
    ledger.statuses.set('cut', (ledger.statuses.get('cut') ?? 0) + 1);
    return { outcome: 'doubt' };
  }
}

// ---------------------------------------------------------------------------------------------
// The writers

class Writers {
  paused = true;
  stopped = false;
  inFlight = 0;
  /** Answers to requests sent and answered between two moments (the outage), by status. */
  window: { from: number; to: number; statuses: Map<string, number> } | undefined;
  readonly posts: string[];
  readonly comments: { postId: string; commentId: string }[] = [];
  private readonly loops: Promise<void>[];

  constructor(
    private readonly target: { url: string },
    readonly ledger: Ledger,
    readonly users: SignedUp[],
    private readonly others: string[],
    samplePosts: string[],
    private readonly rnd: Random,
  ) {
    this.posts = [...samplePosts];
    this.loops = users.map((user) => this.loop(user));
  }

  private async loop(user: SignedUp) {
    while (!this.stopped) {
      if (this.paused) {
        await sleep(20);
        continue;
      }
      this.inFlight++;
      const started = performance.now();
      let sent = true;
      try {
        sent = await this.writeOnce(user, started);
      } finally {
        this.inFlight--;
      }
      if (!sent) await sleep(25);
    }
  }

  /** Lets the writers go and waits for the first acknowledged write (a fresh server is slow at first). */
  async flowing() {
    const before = this.ledger.ackedTotal;
    this.paused = false;
    const started = performance.now();
    while (this.ledger.ackedTotal === before && performance.now() - started < 30_000) await sleep(10);
  }

  /** Waits until no request is in flight (after pausing). */
  async pause() {
    this.paused = true;
    while (this.inFlight > 0) await sleep(5);
  }

  async stop() {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private note(started: number, answer: Answer | undefined) {
    const w = this.window;
    if (w && started >= w.from && performance.now() <= w.to) {
      const key = answer ? `${answer.status}${answer.headers['retry-after'] ? ' + Retry-After' : ''}` : 'cut';
      w.statuses.set(key, (w.statuses.get(key) ?? 0) + 1);
    }
  }

  /** One write for `user`; false when the server was not listening (nothing sent). */
  private async writeOnce(user: SignedUp, started: number): Promise<boolean> {
    const { ledger, rnd } = this;
    const choice = rnd.next();
    const base = this.target.url;
    const pickPost = () => this.posts[Math.max(0, this.posts.length - 1 - Math.floor(rnd.next() * 40))]!;

    const insert = async (kind: 'post' | 'comment', pathname: string, body: (content: string) => unknown) => {
      const marker = ledger.nextMarker(kind === 'post' ? 'p' : 'c');
      const { outcome, answer } = await send(
        base,
        ledger,
        'POST',
        pathname,
        user.token,
        body(`crash ${ledger.tag} ${marker}`),
      );
      this.note(started, answer);
      if (outcome === 'not-sent') return false;
      if (outcome === 'acked') {
        const id = kind === 'post' ? answer!.body.post._id : answer!.body.comment._id;
        ledger.inserts.set(marker, { kind, state: 'acked', id });
        ledger.acked[kind]++;
        if (kind === 'post') this.posts.push(id);
        else this.comments.push({ postId: answer!.body.comment.postId, commentId: id });
      } else {
        ledger.inserts.set(marker, { kind, state: outcome === 'refused' ? 'refused' : 'doubt' });
        if (outcome === 'doubt') ledger.doubts[answer ? 'failed' : 'cut']++;
      }
      return true;
    };

    const flip = async (toggle: Toggle, next: string, pathname: string) => {
      const { outcome, answer } = await send(base, ledger, 'POST', pathname, user.token);
      this.note(started, answer);
      if (outcome === 'not-sent') return false;
      if (outcome === 'acked') {
        toggle.known = next;
        ledger.acked[toggle.type]++;
      } else if (outcome === 'doubt') {
        toggle.doubt.add(next);
        ledger.doubts[answer ? 'failed' : 'cut']++;
      }
      return true;
    };

    if (choice < 0.2) {
      return insert('post', '/api/posts', (content) => ({ content }));
    }
    if (choice < 0.4) {
      const postId = pickPost();
      return insert('comment', `/api/posts/${postId}/comment`, (content) => ({ commentData: { content } }));
    }
    // A toggle whose state is certain (one in doubt waits for the next check to settle it).
    for (let attempt = 0; attempt < 5; attempt++) {
      const kind = rnd.next();
      if (kind < 0.4) {
        const postId = pickPost();
        const toggle = ledger.toggle('reaction', user.id, postId);
        if (toggle.doubt.size) continue;
        const next = toggle.known === 'like' ? 'dislike' : 'like';
        return flip(toggle, next, `/api/posts/${next}/${postId}`);
      }
      if (kind < 0.6) {
        const other = rnd.pick(this.others.filter((id) => id !== user.id));
        const toggle = ledger.toggle('follow', user.id, other);
        if (toggle.doubt.size) continue;
        const next = toggle.known === 'yes' ? 'no' : 'yes';
        return flip(toggle, next, `/api/users/${next === 'yes' ? 'follow' : 'unfollow'}/${other}`);
      }
      if (kind < 0.8) {
        const postId = pickPost();
        const toggle = ledger.toggle('bookmark', user.id, postId);
        if (toggle.doubt.size) continue;
        const next = toggle.known === 'yes' ? 'no' : 'yes';
        return flip(toggle, next, `/api/users/${next === 'yes' ? 'bookmark' : 'remove-bookmark'}/${postId}`);
      }
      if (this.comments.length === 0) continue;
      const { postId, commentId } =
        this.comments[this.comments.length - 1 - Math.floor(rnd.next() * Math.min(40, this.comments.length))]!;
      const toggle = ledger.toggle('vote', user.id, commentId);
      if (toggle.doubt.size) continue;
      const next = toggle.known === 'up' ? 'down' : 'up';
      return flip(toggle, next, `/api/comments/${next}vote/${postId}/${commentId}`);
    }
    return insert('post', '/api/posts', (content) => ({ content }));
  }
}

// ---------------------------------------------------------------------------------------------
// Reading the database

interface Reader {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
}

/** Compares the database with the ledger, then makes the state found the expected one. */
async function check(reader: Reader, writers: Writers): Promise<Check> {
  const started = performance.now();
  const { ledger } = writers;
  const result: Check = { lost: [], phantoms: [], counters: [], applied: 0, notApplied: 0, ms: 0 };
  const ids = `{${writers.users.map((u) => u.id).join(',')}}`;
  const like = `crash ${ledger.tag} %`;

  // Posts and comments, by the marker in their text.
  const found = new Map<string, { id: string; kind: 'post' | 'comment'; postId?: string }>();
  for (const row of await reader.query<{ id: string; content: string }>(
    'select id, content from posts where content like $1',
    [like],
  )) {
    found.set(row.content.split(' ')[2]!, { id: row.id, kind: 'post' });
  }
  for (const row of await reader.query<{ id: string; content: string; post_id: string }>(
    'select id, content, post_id from comments where content like $1',
    [like],
  )) {
    found.set(row.content.split(' ')[2]!, { id: row.id, kind: 'comment', postId: row.post_id });
  }
  for (const [marker, insert] of ledger.inserts) {
    const row = found.get(marker);
    found.delete(marker);
    if (insert.state === 'acked') {
      if (!row || row.id !== insert.id)
        result.lost.push(`acknowledged ${insert.kind} ${insert.id} (${marker}) is missing`);
    } else if (insert.state === 'refused') {
      if (row) result.phantoms.push(`refused ${insert.kind} ${marker} was written (${row.id})`);
    } else if (row) {
      result.applied++;
      insert.state = 'acked';
      insert.id = row.id;
      if (row.kind === 'post') writers.posts.push(row.id);
      else writers.comments.push({ postId: row.postId!, commentId: row.id });
    } else {
      result.notApplied++;
      insert.state = 'refused';
    }
  }
  for (const [marker, row] of found) result.phantoms.push(`${row.kind} ${row.id} (${marker}) was never sent`);

  // Toggles: the rows of the writers.
  const actual = new Map<string, string>();
  for (const r of await reader.query<{ a: string; b: string; kind: string }>(
    'select user_id as a, post_id as b, kind from post_reactions where user_id = any($1::uuid[])',
    [ids],
  )) {
    actual.set(`reaction:${r.a}:${r.b}`, r.kind);
  }
  for (const r of await reader.query<{ a: string; b: string }>(
    'select follower_id as a, followee_id as b from follows where follower_id = any($1::uuid[])',
    [ids],
  )) {
    actual.set(`follow:${r.a}:${r.b}`, 'yes');
  }
  for (const r of await reader.query<{ a: string; b: string }>(
    'select user_id as a, post_id as b from bookmarks where user_id = any($1::uuid[])',
    [ids],
  )) {
    actual.set(`bookmark:${r.a}:${r.b}`, 'yes');
  }
  for (const r of await reader.query<{ a: string; b: string; kind: string }>(
    'select user_id as a, comment_id as b, kind from comment_votes where user_id = any($1::uuid[])',
    [ids],
  )) {
    actual.set(`vote:${r.a}:${r.b}`, r.kind);
  }
  for (const [key, toggle] of ledger.toggles) {
    const state = actual.get(key) ?? EMPTY[toggle.type];
    actual.delete(key);
    if (state !== toggle.known) {
      if (toggle.doubt.has(state)) result.applied++;
      else result.lost.push(`${key}: expected ${toggle.known}, found ${state}`);
    } else if (toggle.doubt.size) {
      result.notApplied++;
    }
    toggle.known = state;
    toggle.doubt.clear();
  }
  for (const [key, state] of actual) result.phantoms.push(`${key} is ${state}, never written`);

  for (const row of await reader.query<{ counter: string; wrong: number }>(COUNTER_CHECKS)) {
    if (Number(row.wrong) > 0) result.counters.push(`${row.counter}: ${row.wrong} rows differ from the count`);
  }
  result.ms = performance.now() - started;
  return result;
}

async function readPglite<T>(dataDir: string, use: (reader: Reader) => Promise<T>): Promise<T> {
  const db = await PGlite.create(path.join(dataDir, 'db'), { extensions: { pg_trgm } });
  try {
    return await use({ query: async (text, params) => (await db.query(text, params)).rows as never });
  } finally {
    await db.close();
  }
}

async function readPostgres<T>(url: string, use: (reader: Reader) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use({ query: async (text, params) => (await client.query(text, params)).rows });
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// The runs

interface Round {
  killAfterMs: number;
  inFlight: number;
  restartMs: number;
  check: Check;
}

interface BackendReport {
  name: string;
  rounds: Round[];
  ledger: Ledger;
  outage?: Outage;
  lost: number;
  phantoms: number;
  counters: number;
  failures: string[];
}

interface Outage {
  probes: number;
  probeStatuses: Map<string, number>;
  latencies: number[];
  writerStatuses: Map<string, number>;
  downMs: number;
  recoveryMs: number;
  restartMs: number;
  sameProcess: boolean;
  check: Check;
}

/** Starts a server, signs up the writers and answers what they need; `stop` ends it all. */
async function setUp(name: string, options: { dataDir: string; databaseUrl?: string; logFile: string }, rnd: Random) {
  const port = await freePort();
  let server = await startServer({ port, ...options, env: { RATE_LIMITS: 'off' } });
  console.log(`[${name}] server up in ${seconds(server.startMs)} (fresh database, sample data loaded).`);
  const tag = `${name.slice(0, 2).toLowerCase()}${rnd.int(0, 1e6).toString(36)}`;
  const users = await signUpUsers(server.url, `cr${tag}_`, WRITERS);
  const samplePosts = (await request(server.url, 'GET', '/api/posts?limit=50')).body.posts.map(
    (p: { _id: string }) => p._id,
  );
  const sampleUsers = (await request(server.url, 'GET', '/api/users?limit=50')).body.users.map(
    (u: { _id: string }) => u._id,
  );
  const target = { url: server.url };
  const ledger = new Ledger(tag);
  const writers = new Writers(
    target,
    ledger,
    users,
    [...new Set([...sampleUsers, ...users.map((u) => u.id)])],
    samplePosts,
    rnd,
  );
  return {
    get server() {
      return server;
    },
    set server(next: ServerProcess) {
      server = next;
      target.url = next.url;
    },
    port,
    ledger,
    writers,
  };
}

/** The distinct error messages the server logged (level 50: an unexpected error, answered 500). */
function serverErrors(logFile: string): string[] {
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return [];
  }
  const messages = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string; stack?: string } };
      if ((entry.level ?? 0) < 50) continue;
      const cause = entry.err?.stack?.match(/caused by: (.*)/)?.[1];
      messages.add(`${entry.msg}: ${entry.err?.message?.split('\n')[0] ?? ''}${cause ? ` (caused by: ${cause})` : ''}`);
    } catch {
      // not a log entry
    }
  }
  return [...messages];
}

function summarize(name: string, rounds: Round[], ledger: Ledger, logFile: string, outage?: Outage): BackendReport {
  const checks = [...rounds.map((r) => r.check), ...(outage ? [outage.check] : [])];
  const failures: string[] = [];
  for (const c of checks) {
    for (const line of [...c.lost, ...c.phantoms, ...c.counters]) failures.push(`[${name}] ${line}`);
  }
  // A database that goes away is a 503; any other 5xx is a fault of the server.
  const serverFaults = [...ledger.statuses].filter(([status]) => /^5/.test(status) && status !== '503');
  if (serverFaults.length) {
    failures.push(
      `[${name}] writes answered ${serverFaults.map(([s, n]) => `${s} ×${n}`).join(', ')} (a database that is unreachable must give 503); the server logged: ${serverErrors(logFile).join(' | ') || 'nothing'}`,
    );
  }
  if (outage) {
    const bad = [...outage.probeStatuses].filter(([status]) => status !== '503 + Retry-After');
    if (bad.length)
      failures.push(
        `[${name}] while PostgreSQL was down, probes got ${bad.map(([s, n]) => `${s} ×${n}`).join(', ')} (only 503 with Retry-After is right)`,
      );
    const writerBad = [...outage.writerStatuses].filter(([status]) => status !== '503 + Retry-After');
    if (writerBad.length)
      failures.push(
        `[${name}] while PostgreSQL was down, writes got ${writerBad.map(([s, n]) => `${s} ×${n}`).join(', ')} (only 503 with Retry-After is right)`,
      );
    const slowest = Math.max(...outage.latencies);
    if (!(slowest < MAX_503_MS))
      failures.push(`[${name}] the slowest 503 took ${slowest.toFixed(0)} ms (must be under ${MAX_503_MS} ms)`);
    if (!outage.sameProcess) failures.push(`[${name}] the server process did not survive the database outage`);
    if (Number.isNaN(outage.recoveryMs))
      failures.push(`[${name}] the API did not answer 200 within 60 s of PostgreSQL being back`);
  }
  return {
    name,
    rounds,
    ledger,
    outage,
    lost: checks.reduce((n, c) => n + c.lost.length, 0),
    phantoms: checks.reduce((n, c) => n + c.phantoms.length, 0),
    counters: checks.reduce((n, c) => n + c.counters.length, 0),
    failures,
  };
}

function describeCheck(c: Check) {
  return `${c.lost.length} lost, ${c.phantoms.length} phantom, ${c.counters.length} counter errors; ${c.applied} in-doubt writes applied, ${c.notApplied} not (${c.ms.toFixed(0)} ms)`;
}

/** The kill rounds: writers on, a random wait, SIGKILL, restart on the same data, check. */
async function killRounds(
  name: string,
  harness: Awaited<ReturnType<typeof setUp>>,
  rnd: Random,
  restart: () => Promise<ServerProcess>,
  verify: (last: boolean) => Promise<Check>,
): Promise<Round[]> {
  const rounds: Round[] = [];
  for (let i = 1; i <= ROUNDS; i++) {
    const killAfterMs = rnd.int(200, 2500);
    await harness.writers.flowing();
    await sleep(killAfterMs);
    const inFlight = harness.writers.inFlight;
    await harness.server.kill9();
    await harness.writers.pause();
    dropIdleSockets();
    const started = performance.now();
    harness.server = await restart();
    const restartMs = performance.now() - started;
    const result = await verify(i === ROUNDS);
    rounds.push({ killAfterMs, inFlight, restartMs, check: result });
    console.log(
      `[${name}] kill ${i}/${ROUNDS} ${killAfterMs} ms into the writes, with ${inFlight} writes in flight; back in ${seconds(restartMs)}; ${harness.ledger.ackedTotal} acknowledged so far; ${describeCheck(result)}.`,
    );
  }
  return rounds;
}

async function runPglite(rnd: Random): Promise<BackendReport> {
  const dataDir = tempDir('crash-pglite');
  const logFile = `${dataDir}.log`;
  const harness = await setUp('PGlite', { dataDir, logFile }, rnd);
  try {
    const startAgain = () => startServer({ port: harness.port, dataDir, logFile, env: { RATE_LIMITS: 'off' } });
    const rounds = await killRounds('PGlite', harness, rnd, startAgain, async (last) => {
      // The server recovered the folder; stop it cleanly to read the folder ourselves, then start it again.
      await harness.server.stop();
      const result = await readPglite(dataDir, (reader) => check(reader, harness.writers));
      if (!last) harness.server = await startAgain();
      return result;
    });
    return summarize('PGlite', rounds, harness.ledger, logFile);
  } finally {
    await harness.writers.stop();
    await harness.server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(logFile, { force: true });
  }
}

async function runPostgres(rnd: Random, cluster: PrivateCluster): Promise<BackendReport> {
  const dataDir = tempDir('crash-postgres');
  const logFile = path.join(dataDir, 'server.log');
  await cluster.start();
  const databaseUrl = await createDatabase(cluster.url, 'sharearts_crash');
  const harness = await setUp('PostgreSQL', { dataDir, databaseUrl, logFile }, rnd);
  const verify = () => readPostgres(databaseUrl, (reader) => check(reader, harness.writers));
  try {
    const rounds = await killRounds(
      'PostgreSQL',
      harness,
      rnd,
      () => startServer({ port: harness.port, dataDir, databaseUrl, logFile, env: { RATE_LIMITS: 'off' } }),
      verify,
    );

    // The database goes down under the writers.
    const user = harness.writers.users[0]!;
    const postId = harness.writers.posts.at(-1)!;
    const pid = harness.server.pid;
    await harness.writers.flowing();
    await sleep(rnd.int(200, 1500));
    const stopStarted = performance.now();
    await cluster.stopImmediate();
    const down = performance.now();
    harness.writers.window = { from: down, to: Infinity, statuses: new Map() };
    console.log(
      `[PostgreSQL] database stopped (-m immediate) in ${(down - stopStarted).toFixed(0)} ms; probing for ${OUTAGE_MS / 1000} s…`,
    );
    const probeStatuses = new Map<string, number>();
    const latencies: number[] = [];
    const probes: [string, string, boolean, unknown?][] = [
      ['GET', '/api/health', false],
      ['GET', '/api/posts', false],
      ['GET', `/api/posts/${postId}`, false],
      ['GET', '/api/feed', true],
      ['POST', `/api/posts/like/${postId}`, true],
    ];
    let n = 0;
    while (performance.now() - down < OUTAGE_MS) {
      const [method, pathname, signedIn] = probes[n++ % probes.length]!;
      const started = performance.now();
      let key: string;
      try {
        const answer = await request(harness.server.url, method, pathname, {
          token: signedIn ? user.token : undefined,
          timeoutMs: 10_000,
        });
        key = `${answer.status}${answer.headers['retry-after'] ? ' + Retry-After' : ''}`;
      } catch (error) {
        key = `error ${errorCode(error)}`;
      }
      latencies.push(performance.now() - started);
      probeStatuses.set(key, (probeStatuses.get(key) ?? 0) + 1);
      await sleep(50);
    }
    harness.writers.window.to = performance.now();
    // The probe like is a write in doubt: settle it at the next check like the writers' own.
    harness.writers.ledger.toggle('reaction', user.id, postId).doubt.add('like');
    const restartStarted = performance.now();
    await cluster.start();
    const up = performance.now();
    const downMs = up - down;
    let recoveryMs = NaN;
    while (performance.now() - up < 60_000 && harness.server.alive()) {
      const [health, list] = await Promise.all([
        request(harness.server.url, 'GET', '/api/health').catch(() => undefined),
        request(harness.server.url, 'GET', '/api/posts').catch(() => undefined),
      ]);
      if (health?.status === 200 && list?.status === 200) {
        recoveryMs = performance.now() - up;
        break;
      }
      await sleep(50);
    }
    console.log(
      `[PostgreSQL] database back after ${seconds(downMs)} (start took ${seconds(up - restartStarted)}); API answering 200 again ${recoveryMs.toFixed(0)} ms later.`,
    );
    await sleep(1500);
    await harness.writers.pause();
    const outageCheck = await verify();
    console.log(`[PostgreSQL] after the outage: ${describeCheck(outageCheck)}.`);
    const outage: Outage = {
      probes: latencies.length,
      probeStatuses,
      latencies,
      writerStatuses: harness.writers.window.statuses,
      downMs,
      recoveryMs,
      restartMs: up - restartStarted,
      sameProcess: harness.server.alive() && harness.server.pid === pid,
      check: outageCheck,
    };
    return summarize('PostgreSQL', rounds, harness.ledger, logFile, outage);
  } finally {
    await harness.writers.stop();
    await harness.server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function backendMarkdown(r: BackendReport): string[] {
  const restarts = r.rounds.map((x) => x.restartMs);
  const acked = Object.entries(r.ledger.acked)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  const lines = [
    `**${r.name}**: ${r.rounds.length} kills (SIGKILL) at ${r.rounds.map((x) => `${x.killAfterMs} ms`).join(', ')} after the first acknowledged write of the round, with ${r.rounds.map((x) => x.inFlight).join(', ')} writes in flight; back (health 200) in ${seconds(median(restarts))} median, ${seconds(Math.max(...restarts))} at most.`,
    '',
    `- writes acknowledged: **${r.ledger.ackedTotal}** (${acked}); answers: ${[...r.ledger.statuses].map(([s, n]) => `${s} ×${n}`).join(', ')}`,
    `- writes in doubt: ${r.ledger.doubts.cut} cut by a kill (no answer)${r.outage ? `, ${r.ledger.doubts.failed} answered 503 while the database was down` : ''}; found applied ${sum(r, 'applied')}, not applied ${sum(r, 'notApplied')} (either is right)`,
    `- **writes lost: ${r.lost}**; written though refused or never sent: ${r.phantoms}; counters different from their rows: ${r.counters}`,
  ];
  if (r.outage) {
    const o = r.outage;
    lines.push(
      `- PostgreSQL stopped with \`pg_ctl stop -m immediate\` under the writers for ${seconds(o.downMs)}: ${o.probes} probe requests (health, posts, a post, feed, a like) answered ${[...o.probeStatuses].map(([s, n]) => `${s} ×${n}`).join(', ')}; **503 latency** median ${median(o.latencies).toFixed(0)} ms, max ${Math.max(...o.latencies).toFixed(0)} ms (limit ${MAX_503_MS} ms); the writers' requests meanwhile: ${[...o.writerStatuses].map(([s, n]) => `${s} ×${n}`).join(', ') || 'none'}`,
      `- **recovery**: PostgreSQL restarted (crash recovery) in ${seconds(o.restartMs)}; the same server process (no restart) answered health and posts with 200 ${o.recoveryMs.toFixed(0)} ms after; acknowledged writes intact: ${o.check.lost.length === 0 ? 'yes' : 'no'}`,
    );
  }
  return lines;
}

const sum = (r: BackendReport, field: 'applied' | 'notApplied') =>
  [...r.rounds.map((x) => x.check), ...(r.outage ? [r.outage.check] : [])].reduce((n, c) => n + c[field], 0);

async function main() {
  const seed = seedFrom('CRASH_SEED');
  console.log(
    `Crash check: seed ${seed} (CRASH_SEED=${seed} replays the kill moments and random choices), ${ROUNDS} kills per database.`,
  );
  // The two parts run side by side (each has its own server, database and random sequence).
  const bin = PARTS.includes('postgres') ? postgresBinaries() : undefined;
  if (PARTS.includes('postgres') && !bin && process.env.DATABASE_URL) {
    throw new CheckFailed(
      'PostgreSQL binaries (/usr/lib/postgresql/<version>/bin) not found: the PostgreSQL part cannot run.',
    );
  }
  const parts: Promise<BackendReport>[] = [];
  let skipped: string | undefined;
  if (PARTS.includes('pglite')) parts.push(runPglite(randomGenerator(seed)));
  if (bin) {
    parts.push(
      (async () => {
        const cluster = await PrivateCluster.create(bin);
        const cleanup = () => cluster.destroy();
        process.once('SIGINT', () => {
          cleanup();
          process.exit(130);
        });
        try {
          console.log(`[PostgreSQL] private cluster (${bin}) on port ${cluster.port} under ${cluster.dir}.`);
          return await runPostgres(randomGenerator((seed ^ 0x5bd1e995) >>> 0), cluster);
        } finally {
          cleanup();
        }
      })(),
    );
  } else if (!PARTS.includes('postgres')) {
    skipped = 'PostgreSQL part not run (CRASH_PARTS).';
  } else {
    skipped = 'PostgreSQL part skipped: no PostgreSQL binaries under /usr/lib/postgresql.';
    console.warn(skipped);
  }
  const settled = await Promise.allSettled(parts);
  for (const result of settled) if (result.status === 'rejected') throw result.reason;
  const reports = settled.map((result) => (result as PromiseFulfilledResult<BackendReport>).value);

  const failures = reports.flatMap((r) => r.failures);
  const markdown = [
    `Seed ${seed} (\`CRASH_SEED=${seed}\` replays the kill moments and the sequence of the writers' random choices; which writer gets which follows the timing). Production build, ${WRITERS} writers (posts, comments, likes/dislikes, votes, follows, bookmarks) writing without a pause; after every restart the database itself is read (PGlite: the server is stopped cleanly and the folder opened with PGlite; PostgreSQL: a direct connection). A write is acknowledged when a 2xx came back. PostgreSQL runs in a private throw-away cluster, never the machine's shared server.`,
    '',
    `**${failures.length === 0 ? 'Passed' : 'Failed'}.** Kills: ${reports.map((r) => `${r.name} ${r.rounds.length}`).join(', ')}; writes acknowledged ${reports.reduce((n, r) => n + r.ledger.ackedTotal, 0)}, **lost ${reports.reduce((n, r) => n + r.lost, 0)}**.`,
    '',
    ...reports.flatMap((r) => [...backendMarkdown(r), '']),
    ...(skipped ? [skipped, ''] : []),
    ...(failures.length ? ['**Failures:**', '', ...failures.slice(0, 20).map((f) => `- ${f}`)] : []),
  ].join('\n');
  await writeReliabilitySection('crash', markdown);
  if (failures.length) throw new CheckFailed(failures.slice(0, 50).join('\n'));
}

await runCheck('Crash check', main);
