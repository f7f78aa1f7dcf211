/**
 * `npm run bench:api -- --database <url> [--database <url> …]`: for each seeded PostgreSQL database,
 * starts the production server (with the two reference routes), loads every hot route with autocannon
 * at 50 connections for 10 s each, one route after another, `--rounds` times over (3 by default; the
 * databases' servers run side by side and the rounds alternate between them), and prints each route's
 * median req/s, p50 and p99, its errors, and its ratios to the references and to itself on the other
 * database (each the median of the ratios within a round: this machine's speed drifts from one minute
 * to the next). `--write` also puts the table in docs/performance.md; `--only <part>` (repeatable)
 * loads only the routes whose name contains it, besides the references.
 *
 * `--workers 1,2` runs each database's server with each of those worker counts (WORKERS; one by default),
 * side by side, the rounds alternating between them too, and adds a table of each count's req/s over the
 * first's. The load generator runs on the same machine: on 2 cores it takes one of them.
 */
import { hash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { SignJWT } from 'jose';
import { encodeCursor } from '../apps/server/src/lib/cursor.js';
import { checkCounts, writeTargets } from './write-scenarios.js';
import { startBareFastify, startProductionServer, type RunningServer } from './server.js';

const { values } = parseArgs({
  options: {
    database: { type: 'string', multiple: true },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    // The routes run one after another, this many times over; the table gives each figure's median.
    rounds: { type: 'string', default: '3' },
    write: { type: 'boolean', default: false },
    // Only the routes whose name contains one of these (the two references always run).
    only: { type: 'string', multiple: true },
    // Worker counts to compare, e.g. `1,2`: a server per database and count, side by side.
    workers: { type: 'string', default: '1' },
  },
});
const databases = values.database ?? (process.env.DATABASE_URL ? [process.env.DATABASE_URL] : []);
if (databases.length === 0) throw new Error('Pass --database postgres://… (a database filled by npm run bench:seed).');
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Number(values.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--rounds must be a whole number, 1 or more.');
const WORKERS = values.workers.split(',').map((w) => Number(w.trim()));
if (WORKERS.some((w) => !Number.isInteger(w) || w < 1 || w > 256) || new Set(WORKERS).size !== WORKERS.length) {
  throw new Error(
    `--workers takes different whole numbers from 1 to 256, comma-separated (such as 1,2), not "${values.workers}".`,
  );
}
const SECRET = randomBytes(32).toString('base64url');
/** The keyset query answered with a page of posts' bytes: the least any page route can cost. */
const REFERENCE_PAGE = 'reference: keyset query + a page of bytes';
const PASSWORD_COST_NOTE = 'tokens are signed by the benchmark with the server’s JWT_SECRET';

const uuidOf = (text: string) => {
  const hex = hash('md5', text, 'hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
const benchUser = (n: number) => ({ id: uuidOf(`bench-user-${n}`), username: `bench_${n}` });
/** A token of bench user n, naming its session `sid` (issue 24: a token names a live server-side session). */
const token = (n: number, sid: string) =>
  new SignJWT({ username: benchUser(n).username, sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(benchUser(n).id)
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));

interface Result {
  route: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Mean bytes of an answer as sent (body and headers). */
  bytes: number;
}

/** A route over all rounds: the median of each figure, the spread of req/s, and every round's sample. */
interface Summary extends Result {
  rpsMin: number;
  rpsMax: number;
  samples: Result[];
}

const median = (numbers: number[]): number => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function summarize(samples: Map<string, Result[]>): Summary[] {
  return [...samples].map(([route, results]) => ({
    route,
    rps: median(results.map((r) => r.rps)),
    rpsMin: Math.min(...results.map((r) => r.rps)),
    rpsMax: Math.max(...results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    bytes: median(results.map((r) => r.bytes)),
    samples: results,
  }));
}

/** The median over the rounds of a route's req/s divided by another's (a reference's, or its own on the other database) in the same round. */
const sideBySide = (route: Summary, reference: Summary): string =>
  median(route.samples.map((r, i) => r.rps / (reference.samples[i]?.rps ?? Number.NaN))).toFixed(2);

function load(url: string, options: Partial<autocannon.Options>): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: DURATION, ...options });
}

/** One load's figures as a route's sample. */
const sampleOf = (route: string, result: autocannon.Result): Result => ({
  route,
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  errors: result.errors + result.timeouts,
  non2xx: result.non2xx,
  bytes: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
});

/**
 * Starts the server on one seeded database and warms it up; `round` then loads every route once, and
 * `finish` stops the server and answers each route's figures over the rounds.
 */
async function prepareDatabase(databaseUrl: string, workers: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const {
    rows: [sizes],
  } = await client.query<{ posts: number; users: number }>(
    'select (select count(*) from posts)::int as posts, (select count(*) from users)::int as users',
  );
  const {
    rows: [deep],
  } = await client.query<{ created_at: Date; id: string }>(
    'select created_at, id from posts order by created_at desc, id desc offset $1 limit 1',
    [Math.min(20_000, Math.max(0, sizes!.posts - 40))],
  );
  const {
    rows: [hot],
  } = await client.query<{ id: string }>('select id from posts order by comment_count desc, like_count desc limit 1');
  // Issue 26: the viral post and the popular artist (bench/write-scenarios.ts).
  const writes = await writeTargets(client, CONNECTIONS);
  await client.end();
  const deepCursor = encodeCursor([deep!.created_at, deep!.id]);
  const server = await startProductionServer({
    DATABASE_URL: databaseUrl,
    JWT_SECRET: SECRET,
    BENCH_ROUTES: '1',
    WORKERS: String(workers),
  });
  // One session per bench user, as a log-in writes it (the server migrated the database as it started).
  const sessions = new pg.Client({ connectionString: databaseUrl });
  await sessions.connect();
  const sids: string[] = [];
  for (let n = 1; n <= CONNECTIONS + 1; n += 1) {
    const { rows } = await sessions.query<{ id: string }>(
      `insert into sessions (user_id, user_agent) values ($1, 'bench:api') returning id`,
      [benchUser(n).id],
    );
    sids.push(rows[0]!.id);
  }
  await sessions.end();
  const tokens = await Promise.all(Array.from({ length: CONNECTIONS + 1 }, (_, i) => token(i + 1, sids[i]!)));
  const auth = (i: number) => ({ authorization: `Bearer ${tokens[i % tokens.length]}` });

  /** Every round's result of each route, in the order the routes run. */
  const samples = new Map<string, Result[]>();
  const run = async (route: string, options: Partial<autocannon.Options>) => {
    if (values.only && !route.startsWith('reference') && !values.only.some((part) => route.includes(part))) return;
    const result = await load(server.url, options);
    const sample = sampleOf(route, result);
    samples.set(route, [...(samples.get(route) ?? []), sample]);
    console.log(
      `${route.padEnd(40)} ${result.requests.average.toFixed(0).padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  errors ${sample.errors}  non-2xx ${result.non2xx}`,
    );
  };
  // The posts the load writes go after each round (and their authors' counts with them), so the next
  // round's first page is the same page of pictures, and the database is left as it was. The load's
  // last requests may still be running when autocannon reports: they get two seconds to end.
  const removeBenchPosts = async () => {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const cleanup = new pg.Client({ connectionString: databaseUrl });
    await cleanup.connect();
    await cleanup.query(`
      with gone as (delete from posts where content = 'A benchmark post #bench' returning author_id)
      update users u set post_count = u.post_count - g.n
      from (select author_id, count(*)::int as n from gone group by author_id) g where u.id = g.author_id`);
    await cleanup.end();
  };

  /** Runs `body` while the first bench user blocks and mutes 1,000 people each (see the round). */
  const safetyRoutes = [
    'GET /api/feed (blocks and mutes 1,000 people)',
    'GET /api/posts (signed in, blocks and mutes 1,000 people)',
  ] as const;
  const withSafetyRows = async (body: () => Promise<void>) => {
    if (values.only && !values.only.some((part) => safetyRoutes.some((route) => route.includes(part)))) return;
    const viewer = benchUser(1).id;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const clear = async () => {
      await client.query('delete from blocks where blocker_id = $1', [viewer]);
      await client.query('delete from mutes where muter_id = $1', [viewer]);
      await client.query('delete from muted_words where user_id = $1', [viewer]);
      await relationsChanged();
    };
    // Written here, not through the API: the server remembers the viewer's relations, and forgets them on the
    // event the API's writes send (issue 23).
    const relationsChanged = () =>
      client.query(
        `select pg_notify('share_arts_live', json_build_object('type', 'relations-changed', 'userIds', json_build_array($1::text))::text)`,
        [viewer],
      );
    await clear();
    // A block ends the follows between the two (as POST /api/users/{id}/block does), so the blocked are
    // people the viewer does not follow; a mute keeps them, so 100 of the muted are followed.
    await client.query(
      `insert into blocks (blocker_id, blocked_id)
       select $1::uuid, id from users where id <> $1::uuid
         and id not in (select followee_id from follows where follower_id = $1::uuid)
       order by id limit 1000`,
      [viewer],
    );
    await client.query(
      `insert into mutes (muter_id, muted_id)
       (select $1::uuid, followee_id from follows where follower_id = $1::uuid order by followee_id limit 100)
       union (select $1::uuid, id from users where id <> $1::uuid
              and id not in (select blocked_id from blocks where blocker_id = $1::uuid)
              and id not in (select followee_id from follows where follower_id = $1::uuid)
              order by id desc limit 900)`,
      [viewer],
    );
    await client.query(`insert into muted_words (user_id, word) select $1::uuid, w from unnest($2::text[]) w`, [
      viewer,
      ['spoiler', 'crypto', 'nft', '#giveaway', 'election'],
    ]);
    await relationsChanged();
    try {
      await body();
    } finally {
      await clear();
      await client.end();
    }
  };

  // Each connection acts as its own user, so toggles alternate (like → dislike → like …); a
  // connection that autocannon reopens may share a user with another, and some toggles then meet the
  // rules' own 400s ("already liked"), which count as non-2xx.
  let connection = 0;
  const perConnection = (build: (user: number) => autocannon.Request[]): Partial<autocannon.Options> => ({
    requests: [{ method: 'GET', path: '/api/bench/hello' }],
    setupClient: (client: autocannon.Client) => {
      const user = (connection++ % CONNECTIONS) + 2;
      client.setRequests(
        build(user).map((request) => ({ ...request, headers: { ...request.headers, ...auth(user) } })),
      );
    },
  });
  const targetPost = (user: number) => uuidOf(`bench-post-${1000 + user}`);
  // Someone in the middle of the bench users (who exist in a small database too), not followed yet.
  const benchUsers = sizes!.users - 5;
  const followTarget = (user: number) => benchUser(Math.floor(benchUsers / 2) + user).id;

  // A few seconds of reads first, unrecorded, so the first round does not pay for the JIT's warm-up.
  for (const path of ['/api/bench/hello', '/api/bench/keyset-page', '/api/posts']) {
    await autocannon({ url: `${server.url}${path}`, connections: CONNECTIONS, duration: 3 });
  }
  const round = async () => {
    await run('reference: hello world', { requests: [{ method: 'GET', path: '/api/bench/hello' }] });
    await run('reference: one keyset query', { requests: [{ method: 'GET', path: '/api/bench/keyset' }] });
    await run(REFERENCE_PAGE, { requests: [{ method: 'GET', path: '/api/bench/keyset-page' }] });
    await run('GET /api/posts (first page)', { requests: [{ method: 'GET', path: '/api/posts' }] });
    // A browser asks for a compressed answer; the other routes are loaded as an API client without it.
    await run('GET /api/posts (first page, brotli)', {
      requests: [{ method: 'GET', path: '/api/posts', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } }],
    });
    await run('GET /api/posts (first page, signed in)', {
      requests: [{ method: 'GET', path: '/api/posts', headers: auth(0) }],
    });
    await run('GET /api/posts (page ~1000)', {
      requests: [{ method: 'GET', path: `/api/posts?cursor=${deepCursor}` }],
    });
    await run('GET /api/feed (following 500)', { requests: [{ method: 'GET', path: '/api/feed', headers: auth(0) }] });
    // Block and mute (issue 23): the same viewer as above, blocking 1,000 people and muting 1,000 others (100
    // of whom they follow), with 5 muted words; the rows go after these two routes.
    await withSafetyRows(async () => {
      await run(safetyRoutes[0], {
        requests: [{ method: 'GET', path: '/api/feed', headers: auth(0) }],
      });
      await run(safetyRoutes[1], {
        requests: [{ method: 'GET', path: '/api/posts', headers: auth(0) }],
      });
    });
    await run('GET /api/posts/{id}', { requests: [{ method: 'GET', path: `/api/posts/${hot!.id}` }] });
    await run('GET /api/comments/{postId}', { requests: [{ method: 'GET', path: `/api/comments/${hot!.id}` }] });
    await run('GET /api/search?q=light', { requests: [{ method: 'GET', path: '/api/search?q=light' }] });
    await run(
      'like/dislike mix',
      perConnection((user) => [
        { method: 'POST', path: `/api/posts/like/${targetPost(user)}`, headers: { prefer: 'return=minimal' } },
        { method: 'POST', path: `/api/posts/dislike/${targetPost(user)}`, headers: { prefer: 'return=minimal' } },
      ]),
    );
    await run(
      'follow/unfollow mix',
      perConnection((user) => [
        { method: 'POST', path: `/api/users/follow/${followTarget(user)}` },
        { method: 'POST', path: `/api/users/unfollow/${followTarget(user)}` },
      ]),
    );
    // Issue 26: 50 connections liking and unliking one post, and 50 posts of one author.
    for (const scenario of writes.scenarios.filter((s) => !s.name.includes('mix'))) {
      await run(scenario.name, perConnection(scenario.requests));
    }
    await run(
      'POST /api/posts',
      perConnection(() => [
        {
          method: 'POST',
          path: '/api/posts',
          headers: { 'content-type': 'application/json', prefer: 'return=minimal' },
          body: JSON.stringify({ content: 'A benchmark post #bench' }),
        },
      ]),
    );
    await removeBenchPosts();
  };
  const finish = async () => {
    await server.stop();
    await removeBenchPosts();
    // Every like and follow the load wrote must be counted exactly: each touched counter against its rows.
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    const counts = await checkCounts(check, writes);
    await check.end();
    console.log(
      `${new URL(databaseUrl).pathname.slice(1)}: ${counts.checked} posts and users the writes touched, ${counts.wrong.length} counters wrong${counts.wrong.length ? `:\n${counts.wrong.join('\n')}` : ''}`,
    );
    return { posts: sizes!.posts, users: sizes!.users, workers, results: summarize(samples) };
  };
  const name = new URL(databaseUrl).pathname.slice(1);
  return { name: WORKERS.length > 1 ? `${name}, WORKERS=${workers}` : name, round, finish };
}

// Issue 26: the fixed cost of a request. The app's hello world beside a bare Fastify's (bench/bare-fastify.ts),
// with the log off and with one line per request written to a file, as a production server writes it. Its
// four servers of its own are loaded in every round, before the databases' routes; the app's two run on the
// first database (hello world asks it nothing). Each ratio is the median of the ratios within a round.
const FIXED_COST = [
  { name: 'hello: bare Fastify, no log', bare: true, log: false },
  { name: 'hello: the app, LOG_LEVEL=warn', bare: false, log: false },
  { name: 'hello: bare Fastify, a log line per request', bare: true, log: true },
  { name: 'hello: the app, LOG_LEVEL=info', bare: false, log: true },
] as const;

/** A process's CPU time so far, in µs (user + system; /proc counts in ticks of 10 ms). */
const cpuMicros = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};

async function prepareFixedCost(databaseUrl: string) {
  const targets = FIXED_COST.filter(({ name }) => !values.only || values.only.some((part) => name.includes(part)));
  if (targets.length === 0) return undefined;
  const servers: RunningServer[] = [];
  for (const { bare, log } of targets) {
    servers.push(
      bare
        ? await startBareFastify({ log })
        : await startProductionServer(
            { DATABASE_URL: databaseUrl, JWT_SECRET: SECRET, BENCH_ROUTES: '1', LOG_LEVEL: log ? 'info' : 'warn' },
            { logToFile: true },
          ),
    );
  }
  for (const server of servers) {
    await autocannon({ url: `${server.url}/api/bench/hello`, connections: CONNECTIONS, duration: 3 });
  }
  const samples = new Map<string, Result[]>();
  /** The server's CPU time per answer in each round, in µs: less moved by the load of other processes than req/s. */
  const cpu = new Map<string, number[]>();
  const round = async () => {
    for (const [i, { name }] of targets.entries()) {
      const server = servers[i]!;
      const before = cpuMicros(server.pid);
      const result = await load(`${server.url}/api/bench/hello`, {});
      const perRequest = (cpuMicros(server.pid) - before) / Math.max(1, result.requests.total);
      const sample = sampleOf(name, result);
      samples.set(name, [...(samples.get(name) ?? []), sample]);
      cpu.set(name, [...(cpu.get(name) ?? []), perRequest]);
      console.log(
        `${name.padEnd(44)} ${sample.rps.toFixed(0).padStart(7)} req/s  p50 ${sample.p50} ms  p99 ${sample.p99} ms  ${perRequest.toFixed(0)} µs CPU a request  errors ${sample.errors}  non-2xx ${sample.non2xx}`,
      );
    }
  };
  /** Stops the servers and answers the table's lines. */
  const finish = async () => {
    for (const server of servers) await server.stop();
    const results = summarize(samples);
    const find = (bare: boolean, log: boolean) =>
      results.find((r) => r.route === FIXED_COST.find((t) => t.bare === bare && t.log === log)!.name);
    const lines = [
      '**Hello world: the app beside a bare Fastify (issue 26)**',
      '',
      '| server | req/s | req/s range | p50 ms | p99 ms | errors | non-2xx | KB sent | CPU µs a request | × bare Fastify, same log | × itself without log |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ];
    for (const r of results) {
      const { bare, log } = FIXED_COST.find((t) => t.name === r.route)!;
      const bareOne = find(true, log);
      const unlogged = log ? find(bare, false) : undefined;
      lines.push(
        `| ${r.route} | ${r.rps.toFixed(0)} | ${r.rpsMin.toFixed(0)}–${r.rpsMax.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${(r.bytes / 1024).toFixed(2)} | ${median(cpu.get(r.route)!).toFixed(0)} | ${bareOne ? sideBySide(r, bareOne) : '–'} | ${unlogged ? sideBySide(r, unlogged) : '–'} |`,
      );
    }
    lines.push('');
    return lines;
  };
  return { round, finish };
}

// Both databases' servers run side by side and the rounds alternate between them, so the growth from
// the small to the large one is measured in the same minutes too.
const benches = [];
for (const databaseUrl of databases) {
  for (const workers of WORKERS) benches.push(await prepareDatabase(databaseUrl, workers));
}
const fixedCost = await prepareFixedCost(databases[0]!);
for (let round = 1; round <= ROUNDS; round++) {
  if (fixedCost) {
    console.log(`\nHello world beside a bare Fastify, round ${round} of ${ROUNDS}:`);
    await fixedCost.round();
  }
  for (const bench of benches) {
    console.log(`\n${bench.name}, round ${round} of ${ROUNDS}:`);
    await bench.round();
  }
}
const runs = [];
for (const bench of benches) runs.push(await bench.finish());

const lines = [
  `Measured ${new Date().toISOString().slice(0, 16)}Z on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; autocannon, ${CONNECTIONS} connections, ${DURATION} s per route, the routes run one after another ${ROUNDS} times over, the rounds alternating between the databases${WORKERS.length > 1 ? ` and the worker counts (WORKERS=${WORKERS.join(', ')}; the load generator shares the machine)` : ''}; each figure is the median of the ${ROUNDS} rounds, and each ratio the median of the ratios within a round (${PASSWORD_COST_NOTE}).`,
  '',
];
for (const { posts, users, workers, results } of runs) {
  const [hello, keyset] = [results[0]!, results[1]!];
  const ceiling = results.find((r) => r.route === REFERENCE_PAGE)!;
  const heading = `${posts.toLocaleString('en')} posts, ${users.toLocaleString('en')} users`;
  lines.push(`**${heading}${WORKERS.length > 1 ? `, WORKERS=${workers}` : ''}**`, '');
  lines.push(
    '| route | req/s | req/s range | p50 ms | p99 ms | errors | non-2xx | KB sent | × hello | × keyset | × keyset + page |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of results) {
    lines.push(
      `| ${r.route} | ${r.rps.toFixed(0)} | ${r.rpsMin.toFixed(0)}–${r.rpsMax.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${(r.bytes / 1024).toFixed(1)} | ${sideBySide(r, hello)} | ${sideBySide(r, keyset)} | ${sideBySide(r, ceiling)} |`,
    );
  }
  lines.push('');
}
if (WORKERS.length > 1) {
  // Per database: each worker count's req/s over the first count's, round by round.
  for (let d = 0; d < runs.length; d += WORKERS.length) {
    const base = runs[d]!;
    const others = runs.slice(d + 1, d + WORKERS.length);
    lines.push(
      `**WORKERS=${others.map((r) => r.workers).join(', ')} ÷ WORKERS=${base.workers}: req/s at ${base.posts.toLocaleString('en')} posts**`,
      '',
    );
    lines.push(
      `| route | ${others.map((r) => `× ${r.workers} workers`).join(' | ')} |`,
      `|---|${others.map(() => '---:|').join('')}`,
    );
    for (const r of base.results) {
      const ratios = others.map((o) => {
        const same = o.results.find((x) => x.route === r.route);
        return same ? sideBySide(same, r) : '–';
      });
      lines.push(`| ${r.route} | ${ratios.join(' | ')} |`);
    }
    lines.push('');
  }
} else if (runs.length > 1) {
  const [small, large] = [runs[0]!, runs.at(-1)!];
  lines.push(
    `**Growth: req/s at ${large.posts.toLocaleString('en')} posts ÷ req/s at ${small.posts.toLocaleString('en')} posts**`,
    '',
  );
  lines.push('| route | ratio |', '|---|---:|');
  for (const r of large.results) {
    const before = small.results.find((s) => s.route === r.route);
    if (before) lines.push(`| ${r.route} | ${sideBySide(r, before)} |`);
  }
  lines.push('');
}
if (fixedCost) lines.push(...(await fixedCost.finish()));
const table = lines.join('\n');
console.log(`\n${table}`);
if (values.write) {
  const file = 'docs/performance.md';
  const doc = await readFile(file, 'utf8');
  // A comparison of worker counts has its own section: the main table stays one worker's.
  const section = WORKERS.length > 1 ? 'bench:api:workers' : 'bench:api';
  const start = `<!-- ${section} -->`;
  const end = `<!-- /${section} -->`;
  if (!doc.includes(start)) throw new Error(`${file} has no ${start} … ${end} section.`);
  await writeFile(file, `${doc.slice(0, doc.indexOf(start) + start.length)}\n${table}\n${doc.slice(doc.indexOf(end))}`);
  console.log(`Wrote the table to ${file}.`);
}
