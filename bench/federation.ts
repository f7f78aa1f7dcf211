/**
 * `npm run bench:federation`: the fediverse under load (issue 39). On PGlite (in memory), and on PostgreSQL too
 * when DATABASE_URL names a server (a fresh database is made there and dropped):
 *
 * 1. Out: an artist with SERVERS × PER_SERVER remote followers (500 × 20 = 10,000 by default, put in with SQL as
 *    the inbox would keep them, `users.remote_follower_count` with them) on SERVERS fake servers, each its own
 *    origin on a loopback port; one public work published through the API. From its 201 to the last inbox POST
 *    received: seconds, deliveries and signatures a second (every POST counted, and whether it carries an HTTP
 *    signature; 1 in SAMPLE verified there with Fedify's verifyRequest against our actor's key). First with the
 *    servers' shared inboxes (one delivery a server), then (`personal` in PHASES, by default on PostgreSQL only)
 *    with personal inboxes only (one delivery a follower). Meanwhile GET /api/posts at 20 connections (autocannon),
 *    against the same alone (after 5 s of it to warm up) for DURATION seconds before and for the fan-out's own
 *    duration after: the ratio is its req/s during ÷ the mean of the two alone. And this process's CPU milliseconds
 *    a delivery: its CPU time during the fan-out less the pages' (at their CPU time a page alone), over the
 *    deliveries.
 * 2. In: LIKERS remote actors (their documents and keys served by the fake servers; a few key pairs shared
 *    between them, each actor still its own key id to fetch) like the works of another artist: LIKES Likes,
 *    signed beforehand (draft-cavage, as Mastodon signs), POSTed to our shared inbox CONCURRENCY at a time.
 *    Activities a second answered 202, the time until every like is counted (`remote_reactions`, and the
 *    works' `remote_like_count` checked against it), how many times the actors' documents were fetched, and this
 *    process's CPU milliseconds an activity (from the first POST until the last is counted).
 *
 * The server is this process (the app as the tests build it, with the sample data, PUBLIC_ORIGIN its own loopback
 * origin and `federationAllowPrivateAddress`); the fake servers and the load generator are two child processes
 * (bench/federation-peers.ts). Env: SERVERS (500), PER_SERVER (20), LIKES (3000), LIKERS (300), CONCURRENCY (32),
 * DURATION (10), SAMPLE (100), TIMEOUT (seconds a phase may take, 180), DATABASE_URL, PGLITE=0 (PostgreSQL only),
 * FEDERATION_DELIVERIES and FEDERATION_INTAKE (the server's, apps/server/src/config.ts), and PHASES: the parts run,
 * of `shared` (out, shared inboxes), `in` and `personal` (out, personal inboxes), comma-separated (default
 * `shared,in` on PGlite, `shared,in,personal` on PostgreSQL).
 */
import { fork } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.js';
import { createPost, createTestApp, signUp, type SignedUp, type TestContext } from '../apps/server/src/test/helpers.js';

const SERVERS = Number(process.env.SERVERS ?? 500);
const PER_SERVER = Number(process.env.PER_SERVER ?? 20);
const LIKES = Number(process.env.LIKES ?? 3000);
const LIKERS = Number(process.env.LIKERS ?? 300);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const DURATION = Number(process.env.DURATION ?? 10);
const SAMPLE = Number(process.env.SAMPLE ?? 100);
const TIMEOUT = Number(process.env.TIMEOUT ?? 180);
const CONNECTIONS = 20;
/** FEDERATION_DELIVERIES and FEDERATION_INTAKE, as the server reads them (unset: its defaults). */
const LOAD = {
  ...(process.env.FEDERATION_DELIVERIES ? { deliveries: Number(process.env.FEDERATION_DELIVERIES) } : {}),
  ...(process.env.FEDERATION_INTAKE ? { intake: Number(process.env.FEDERATION_INTAKE) } : {}),
};
/** The parts run on each database (PHASES, else the defaults). */
const phasesOf = (database: 'PGlite' | 'PostgreSQL') =>
  new Set((process.env.PHASES ?? (database === 'PGlite' ? 'shared,in' : 'shared,in,personal')).split(','));
/** The works the likes go to (each liker likes each at most once). */
const LIKED_WORKS = 10;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A port free on loopback now (the app's origin must be known before it is built). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Peer {
  call<T>(op: string, args?: object): Promise<T>;
  close(): void;
}

/** Forks bench/federation-peers.ts as `role` and answers a way to call it. */
async function startPeer(role: 'remote' | 'load'): Promise<Peer> {
  const child = fork(fileURLToPath(new URL('./federation-peers.ts', import.meta.url)), [role], {
    execArgv: ['--import', 'tsx', '--conditions=source'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the ${role} process exited (${code})`)));
  });
  let last = 0;
  const waiting = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  child.on('message', (message: { id: number; result?: unknown; error?: string }) => {
    const call = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) call?.reject(new Error(`${role}: ${message.error}`));
    else call?.resolve(message.result as never);
  });
  return {
    call: <T>(op: string, args: object = {}) =>
      new Promise<T>((resolve, reject) => {
        last += 1;
        waiting.set(last, { resolve, reject });
        child.send({ id: last, op, args });
      }),
    close: () => void child.kill(),
  };
}

interface PageRate {
  rps: number;
  seconds: number;
  non2xx: number;
  errors: number;
  p99: number;
  /** This process's CPU time meanwhile (user and system, all its threads), in seconds. */
  cpu: number;
}

interface InboxState {
  posts: number;
  signed: number;
  first: number;
  last: number;
  sampled: number;
  verified: number;
  failed: number;
  failures: string[];
}

/** GET /api/posts' req/s for `seconds`, alone. */
async function pagesAlone(load: Peer, origin: string, seconds: number): Promise<PageRate> {
  await load.call('start', { url: `${origin}/api/posts`, connections: CONNECTIONS });
  const cpu = process.cpuUsage();
  await sleep(seconds * 1000);
  return { ...(await load.call<Omit<PageRate, 'cpu'>>('stop')), cpu: cpuSeconds(cpu) };
}

/** The CPU time this process used since `from`, in seconds. */
const cpuSeconds = (from: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(from);
  return (user + system) / 1e6;
};

/** SERVERS × PER_SERVER remote actors following `artist`, as the inbox keeps a follow. */
async function addFollowers(ctx: TestContext, artist: SignedUp, origins: string[]) {
  const db = ctx.database.db;
  await queryRows(
    db,
    sql`insert into remote_actors (iri, handle, inbox, shared_inbox, name)
        select o.origin || '/users/f' || g, 'f' || g || '@' || substr(o.origin, 8),
               o.origin || '/users/f' || g || '/inbox', o.origin || '/inbox', 'Follower ' || g
        from json_array_elements_text(${JSON.stringify(origins)}::json) as o(origin),
             generate_series(1, ${PER_SERVER}::int) as g`,
  );
  await queryRows(
    db,
    sql`insert into remote_follows (user_id, remote_actor_id, activity_id)
        select ${artist.user._id}::uuid, id, iri || '/follow' from remote_actors where iri like '%/users/f%'`,
  );
  await queryRows(
    db,
    sql`update users set remote_follower_count =
          (select count(*) from remote_follows where user_id = ${artist.user._id}::uuid)
        where id = ${artist.user._id}::uuid`,
  );
}

interface Outbound {
  label: string;
  expected: number;
  delivered: number;
  signed: number;
  seconds: number;
  verified: number;
  sampled: number;
  failures: string[];
  before: PageRate;
  during: PageRate;
  after: PageRate;
}

/** Publishes a work of `artist` while GET /api/posts is loaded; waits for `expected` inbox POSTs. */
async function fanOut(
  label: string,
  origin: string,
  artist: SignedUp,
  remote: Peer,
  load: Peer,
  expected: number,
): Promise<Outbound> {
  // The pages warmed up first (their JIT and caches): the pages alone after a fan-out ran 19-79 % faster than alone
  // before it in six of eight runs, which made the ratio read the warm-up as the fan-out's cost (session 28).
  await pagesAlone(load, origin, Math.min(DURATION, 5));
  const before = await pagesAlone(load, origin, DURATION);
  await remote.call('reset', { every: SAMPLE });
  await load.call('start', { url: `${origin}/api/posts`, connections: CONNECTIONS });
  const response = await fetch(`${origin}/api/posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${artist.token}`, 'content-type': 'application/json', prefer: 'return=minimal' },
    body: JSON.stringify({ content: `A new work for ${expected} inboxes #fediverse` }),
  });
  const published = now();
  const cpu = process.cpuUsage();
  if (response.status !== 201) throw new Error(`POST /api/posts answered ${response.status}: ${await response.text()}`);
  const deadline = Date.now() + TIMEOUT * 1000;
  let state = await remote.call<InboxState>('inbox');
  while (state.posts < expected && Date.now() < deadline) {
    await sleep(100);
    state = await remote.call<InboxState>('inbox');
  }
  const stopped = now();
  const during = { ...(await load.call<Omit<PageRate, 'cpu'>>('stop')), cpu: cpuSeconds(cpu) };
  const after = await pagesAlone(load, origin, Math.max(3, Math.round(during.seconds)));
  // The sampled verifications (each fetches our actor's key once, then from the cache) end soon after.
  for (let n = 0; n < 100 && state.sampled > state.verified + state.failed; n += 1) {
    await sleep(100);
    state = await remote.call<InboxState>('inbox');
  }
  const seconds = ((state.posts < expected ? stopped : state.last) - published) / 1000;
  return {
    label,
    expected,
    delivered: state.posts,
    signed: state.signed,
    seconds,
    verified: state.verified,
    sampled: state.sampled,
    failures: state.failures,
    before,
    during,
    after,
  };
}

interface Inbound {
  likes: number;
  statuses: Record<string, number>;
  sendSeconds: number;
  applied: number;
  appliedSeconds: number;
  counted: number;
  gets: number;
  actors: number;
  signSeconds: number;
  /** This process's CPU time from the first POST until every like was counted, in seconds. */
  cpu: number;
}

/** LIKERS actors' LIKES signed Likes of `works`, POSTed to our shared inbox; waits until they are counted. */
async function likesIn(ctx: TestContext, origin: string, remote: Peer, works: string[]): Promise<Inbound> {
  const db = ctx.database.db;
  const { seconds: signSeconds } = await remote.call<{ seconds: number }>('signLikes', {
    actors: LIKERS,
    likes: LIKES,
    objects: works.map((id) => `${origin}/ap/posts/${id}`),
    to: `${origin}/ap/inbox`,
  });
  const cpu = process.cpuUsage();
  const sent = await remote.call<{ statuses: Record<string, number>; started: number; ended: number }>('sendLikes', {
    concurrency: CONCURRENCY,
  });
  const accepted = sent.statuses['202'] ?? 0;
  const deadline = Date.now() + TIMEOUT * 1000;
  const applied = async () =>
    (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from remote_reactions where kind = 'like'`))[0]!
      .n;
  let count = await applied();
  while (count < accepted && Date.now() < deadline) {
    await sleep(100);
    count = await applied();
  }
  const appliedAt = now();
  const used = cpuSeconds(cpu);
  const [{ counted }] = (await queryRows<{ counted: number }>(
    db,
    sql`select coalesce(sum(remote_like_count), 0)::int as counted from posts where remote_like_count > 0`,
  )) as [{ counted: number }];
  const { gets, actors } = await remote.call<{ gets: number; actors: number }>('fetched');
  return {
    likes: LIKES,
    statuses: sent.statuses,
    sendSeconds: (sent.ended - sent.started) / 1000,
    applied: count,
    appliedSeconds: (appliedAt - sent.started) / 1000,
    counted,
    gets,
    actors,
    signSeconds,
    cpu: used,
  };
}

async function measure(label: 'PGlite' | 'PostgreSQL') {
  const phases = phasesOf(label);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const ctx = await createTestApp({
    seed: true,
    // All the inbound activities come from one server (the remote peer): its rate per server must not refuse them.
    config: {
      logLevel: 'error',
      publicOrigin: origin,
      federationAllowPrivateAddress: true,
      federationLoad: LOAD,
      federationInboxRate: 1_000_000,
    },
  });
  const remote = await startPeer('remote');
  const load = await startPeer('load');
  try {
    await ctx.app.listen({ port, host: '127.0.0.1' });
    const origins = await remote.call<string[]>('start', { servers: SERVERS });
    const artist = await signUp(ctx.app);
    const liked = await signUp(ctx.app);
    const works: string[] = [];
    for (let n = 0; n < LIKED_WORKS; n += 1) works.push(await createPost(ctx.app, liked, `Work ${n}, to be liked`));
    await addFollowers(ctx, artist, origins);
    console.log(`${label}: ${SERVERS} servers, ${SERVERS * PER_SERVER} remote followers; ${[...phases].join(', ')}…`);

    const outbound: Outbound[] = [];
    let inbound: Inbound | undefined;
    if (phases.has('shared')) {
      outbound.push(await fanOut('shared inboxes', origin, artist, remote, load, SERVERS));
      console.log(`${label}: ${JSON.stringify(outbound.at(-1))}`);
    }
    if (phases.has('in')) {
      inbound = await likesIn(ctx, origin, remote, works);
      console.log(`${label}: ${JSON.stringify(inbound)}`);
    }
    if (phases.has('personal')) {
      await queryRows(ctx.database.db, sql`update remote_actors set shared_inbox = null where iri like '%/users/f%'`);
      outbound.push(await fanOut('personal inboxes', origin, artist, remote, load, SERVERS * PER_SERVER));
      console.log(`${label}: ${JSON.stringify(outbound.at(-1))}`);
    }
    return { label, outbound, inbound };
  } finally {
    remote.close();
    load.close();
    await ctx.close();
  }
}

const url = process.env.DATABASE_URL;
delete process.env.DATABASE_URL;
const results = process.env.PGLITE === '0' ? [] : [await measure('PGlite')];
if (url) {
  process.env.DATABASE_URL = url;
  results.push(await measure('PostgreSQL'));
}

const ratio = (o: Outbound) => o.during.rps / ((o.before.rps + o.after.rps) / 2);
/**
 * This process's CPU milliseconds a delivery: its CPU time during the fan-out less what the pages served meanwhile
 * cost (at their CPU time a page alone, before and after).
 */
const cpuPerDelivery = (o: Outbound) => {
  const alone = [o.before, o.after];
  const perPage = alone.reduce((sum, r) => sum + r.cpu, 0) / alone.reduce((sum, r) => sum + r.rps * r.seconds, 0);
  return ((o.during.cpu - perPage * o.during.rps * o.during.seconds) / o.delivered) * 1000;
};
console.log(
  `\nOut: one public work to ${fmt(SERVERS * PER_SERVER)} followers on ${SERVERS} servers (target ≤ 60 s, pages ≥ 0.8×)\n`,
);
console.log(
  '| database | inboxes | deliveries | seconds | deliveries/s | signatures/s | verified (sample) | GET /api/posts during ÷ alone (before, during, after req/s) | CPU ms a delivery |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | --- | --- | ---: |');
for (const { label, outbound } of results) {
  for (const o of outbound) {
    const missing = o.delivered < o.expected ? ` of ${fmt(o.expected)} (timed out)` : '';
    console.log(
      `| ${label} | ${o.label} | ${fmt(o.delivered)}${missing} | ${fmt(o.seconds, 1)} | ${fmt(o.delivered / o.seconds)} | ` +
        `${fmt(o.signed / o.seconds)} | ${o.verified} of ${o.sampled} | ${fmt(ratio(o), 2)} ` +
        `(${fmt(o.before.rps)}, ${fmt(o.during.rps)}, ${fmt(o.after.rps)}) | ${fmt(cpuPerDelivery(o), 1)} |`,
    );
  }
}
console.log(
  `\nIn: ${fmt(LIKES)} signed Likes from ${LIKERS} actors, ${CONCURRENCY} at a time (target ≥ 300 a second)\n`,
);
console.log(
  '| database | answered | accepted/s | all applied in s | applied/s | likes counted | actor documents fetched (actors) | CPU ms an activity |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const { label, inbound: i } of results) {
  if (!i) continue;
  const answered = Object.entries(i.statuses)
    .map(([status, n]) => `${fmt(n)} × ${status}`)
    .join(', ');
  console.log(
    `| ${label} | ${answered} | ${fmt((i.statuses['202'] ?? 0) / i.sendSeconds)} | ${fmt(i.appliedSeconds, 1)}` +
      `${i.applied < (i.statuses['202'] ?? 0) ? ' (timed out)' : ''} | ${fmt(i.applied / i.appliedSeconds)} | ` +
      `${fmt(i.counted)} of ${fmt(i.applied)} | ${fmt(i.gets)} (${fmt(i.actors)}) | ${fmt((i.cpu / i.applied) * 1000, 1)} |`,
  );
}
for (const { label, outbound } of results)
  for (const o of outbound)
    if (o.failures.length > 0) console.log(`${label}, ${o.label}: not verified: ${o.failures.join('; ')}`);
