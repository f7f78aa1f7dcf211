/**
 * `npm run bench:seed -- --users 100000 --posts 1000000`: fills a database with realistic data, fast,
 * with set-based SQL: users, posts with their media rows, skewed follows (a few users with very many
 * followers), likes and dislikes, bookmarks, comments and votes, then every counter from its rows.
 * `--pictures 5` gives every post five pictures (default one).
 * The database is DATABASE_URL, or the embedded one under DATA_DIR (default ./data).
 */
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config.js';
import { openPglite, openPostgres, queryRows, type Db } from '../apps/server/src/db/client.js';
import { migrate } from '../apps/server/src/db/migrate.js';
import { seedSampleData } from '../apps/server/src/seed/seed.js';
import { lockDataDir } from '../apps/server/src/lib/data-dir.js';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '1000' },
    posts: { type: 'string', default: '10000' },
    likes: { type: 'string' },
    follows: { type: 'string' },
    comments: { type: 'string' },
    bookmarks: { type: 'string' },
    /** Pictures per post (1 to 20): a page's weight and its cache-miss read grow with them. */
    pictures: { type: 'string', default: '1' },
    /** Puts the step timings in docs/performance.md. */
    write: { type: 'boolean', default: false },
  },
});
const count = (value: string | undefined, fallback: number) => {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`Counts must be whole numbers, got "${value}".`);
  return n;
};
const USERS = Math.max(count(values.users, 1000), 10);
const POSTS = count(values.posts, 10_000);
const LIKES = count(values.likes, POSTS * 10);
const FOLLOWS = count(values.follows, Math.min(USERS * 20, USERS * (USERS - 1)));
const COMMENTS = count(values.comments, POSTS * 2);
const BOOKMARKS = count(values.bookmarks, POSTS);
const PICTURES = Math.min(Math.max(count(values.pictures, 1), 1), 20);
/** Rows per statement: large enough to be set-based, small enough to report progress. */
const CHUNK = 500_000;

const config = loadConfig();
const release = config.databaseUrl ? undefined : await lockDataDir(config.dataDir);
/** Bulk-load settings for every connection: no wait for WAL flushes, no FK triggers (ids are made valid). */
const BULK_SETTINGS = '-c synchronous_commit=off -c session_replication_role=replica -c maintenance_work_mem=512MB';
function withBulkSettings(url: string): string {
  const withOptions = new URL(url);
  withOptions.searchParams.set('options', BULK_SETTINGS);
  return withOptions.toString();
}
const database = config.databaseUrl
  ? await openPostgres(withBulkSettings(config.databaseUrl))
  : await openPglite(path.join(config.dataDir, 'db'));
if (database.kind === 'pglite') {
  for (const setting of BULK_SETTINGS.split('-c ').filter(Boolean)) {
    const [name, value] = setting.trim().split('=');
    await database.db.execute(sql.raw(`set ${name} = '${value}'`));
  }
}
const db: Db = database.db;

const seedStarted = performance.now();
const steps: [string, number][] = [];
async function timed(label: string, work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  steps.push([label, seconds]);
  console.log(`${label.padEnd(58)} ${seconds.toFixed(1).padStart(7)} s`);
}

/** Runs `statement(from, to)` over 1..total in chunks. */
async function chunked(label: string, total: number, statement: (from: number, to: number) => ReturnType<typeof sql>) {
  await timed(`${label} (${total.toLocaleString('en')})`, async () => {
    for (let from = 1; from <= total; from += CHUNK) {
      await db.execute(statement(from, Math.min(total, from + CHUNK - 1)));
    }
  });
}

// Deterministic ids: bench row i of a kind always has the same id, so later steps can pick rows by number.
const userId = (n: ReturnType<typeof sql>) => sql`md5('bench-user-' || (${n}))::uuid`;
const postId = (n: ReturnType<typeof sql>) => sql`md5('bench-post-' || (${n}))::uuid`;
/** A user number skewed towards 1 (popular people), and a post number skewed towards popular posts. */
const popularUser = sql`(1 + floor(${USERS} * power(random(), 3)))::int`;
const anyUser = sql`(1 + floor(${USERS} * random()))::int`;
const popularPost = sql`(1 + floor(${Math.max(POSTS, 1)} * power(random(), 2)))::int`;

console.log(
  `Seeding ${database.kind}: ${USERS} users, ${POSTS} posts, ${LIKES} reactions, ${FOLLOWS} follows, ${COMMENTS} comments, ${BOOKMARKS} bookmarks`,
);

await timed('migrations and sample data', async () => {
  await migrate(database);
  await seedSampleData(db, { mediaDir: config.mediaDir, passwordHashCost: config.passwordHashCost });
});

const [template] = await queryRows<{ id: string; password_hash: string; photo_url: string }>(
  db,
  sql`select m.id, u.password_hash, u.photo_url
      from posts p join post_media pm on pm.post_id = p.id join media m on m.id = pm.media_id
      join users u on u.id = p.author_id
      order by p.created_at, pm.position limit 1`,
);
if (!template) throw new Error('The sample data has no post picture to reuse.');
const [{ existing } = { existing: 0 }] = await queryRows<{ existing: number }>(
  db,
  sql`select count(*)::int as existing from users where username like 'bench\\_%'`,
);
if (existing > 0) throw new Error('This database already has bench data; seed a fresh database.');

// Bulk loading: secondary indexes, and the primary keys of the big link tables, are dropped now and
// rebuilt once at the end — far faster than maintaining them row by row. Link rows are de-duplicated
// by DISTINCT ON instead.
const secondaryIndexes = await queryRows<{ indexname: string; indexdef: string }>(
  db,
  sql`select indexname, indexdef from pg_indexes i
      where schemaname = 'public'
        and tablename in ('users', 'posts', 'media', 'post_media', 'follows', 'post_reactions', 'bookmarks', 'comments',
                          'comment_votes')
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
);
const linkKeys = await queryRows<{ table: string; name: string; definition: string }>(
  db,
  sql`select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition
      from pg_constraint
      where contype = 'p'
        and conrelid::regclass::text in ('follows', 'post_reactions', 'bookmarks', 'comment_votes', 'post_media')`,
);
await timed(`drop ${secondaryIndexes.length} indexes and ${linkKeys.length} primary keys`, async () => {
  for (const { indexname } of secondaryIndexes) await db.execute(sql.raw(`drop index "${indexname}"`));
  for (const key of linkKeys) await db.execute(sql.raw(`alter table ${key.table} drop constraint "${key.name}"`));
});

/** Skewed pairs repeat; drawing a quarter more than needed leaves enough distinct ones. */
const oversample = (total: number) => Math.ceil(total * 1.25);

/** One statement: `total` generated rows, de-duplicated on the table's key. */
async function linkRows(label: string, total: number, statement: ReturnType<typeof sql>) {
  await timed(`${label} (${total.toLocaleString('en')})`, () => db.execute(statement));
}

await chunked(
  'users',
  USERS,
  (from, to) => sql`
  insert into users (id, username, first_name, last_name, email, password_hash, bio, photo_url, created_at, updated_at)
  select ${userId(sql`i`)}, 'bench_' || i,
         (array['Ana','Theo','Sana','Jules','Kai','Mira','Lena','Omar','Ines','Yuki'])[1 + i % 10],
         (array['Rivera','Lindqvist','Iqbal','Moreau','Nakamura','Okafor','Berg','Haddad','Costa','Sato'])[1 + (i / 10) % 10],
         'bench' || i || '@example.com', ${template.password_hash},
         'Artist number ' || i || '. Paint, ink and patience.', ${template.photo_url},
         now() - (i::float / ${USERS}) * interval '730 days', now()
  from generate_series(${from}::int, ${to}::int) i`,
);

/** The id of post i's picture k (1-based; the first keeps the id it had when posts had one picture). */
const benchMediaId = (i: ReturnType<typeof sql>, k: ReturnType<typeof sql>) =>
  sql`md5('bench-media-' || (${i}) || case when (${k}) = 1 then '' else '-' || (${k}) end)::uuid`;

await chunked(
  `posts and their media rows (${PICTURES} per post)`,
  POSTS,
  (from, to) => sql`
  with picked as (
    select i, ${postId(sql`i`)} as id, ${userId(popularUser)} as author_id,
           now() - random() * interval '700 days' as created_at
    from generate_series(${from}::int, ${to}::int) i
  ), pictures as (
    insert into media (id, owner_id, purpose, original_file, original_mime, original_bytes, width, height, placeholder, alt, variants, created_at)
    select ${benchMediaId(sql`picked.i`, sql`k`)}, picked.author_id, 'post', m.original_file, m.original_mime,
           m.original_bytes, m.width, m.height, m.placeholder,
           'Bench picture ' || picked.i || case when k = 1 then '' else ' (' || k || ')' end, m.variants,
           picked.created_at
    from picked, generate_series(1, ${PICTURES}::int) k, media m where m.id = ${template.id}::uuid
    returning id
  ), listed as (
    insert into post_media (post_id, media_id, position)
    select picked.id, ${benchMediaId(sql`picked.i`, sql`k`)}, (k - 1)::smallint
    from picked, generate_series(1, ${PICTURES}::int) k
  )
  insert into posts (id, author_id, content, tags, created_at, updated_at)
  select id, author_id,
         (array['Morning light on the studio wall','A quick ink study','Colour test for a bigger piece',
                'Finished at last','Work in progress, thoughts welcome'])[1 + i % 5] || ' #' ||
         (array['painting','ink','sketch','print','photo','ceramics'])[1 + i % 6],
         array[(array['painting','ink','sketch','print','photo','ceramics'])[1 + i % 6]],
         created_at, created_at
  from picked`,
);

await linkRows(
  'follows (skewed towards popular users)',
  FOLLOWS,
  sql`
  insert into follows (follower_id, followee_id, created_at)
  select distinct on (follower, followee) follower, followee, now() - random() * interval '365 days'
  from (select ${userId(anyUser)} as follower, ${userId(popularUser)} as followee
        from generate_series(1, ${oversample(FOLLOWS)}::int)) pairs
  where follower <> followee
  limit ${FOLLOWS}`,
);

await linkRows(
  'likes and dislikes (skewed towards popular posts)',
  LIKES,
  sql`
  insert into post_reactions (post_id, user_id, kind, created_at)
  select distinct on (post, person) post, person, case when random() < 0.9 then 'like' else 'dislike' end,
         now() - random() * interval '365 days'
  from (select ${postId(popularPost)} as post, ${userId(anyUser)} as person
        from generate_series(1, ${oversample(LIKES)}::int)) pairs
  limit ${LIKES}`,
);

await linkRows(
  'bookmarks',
  BOOKMARKS,
  sql`
  insert into bookmarks (user_id, post_id, created_at)
  select distinct on (person, post) person, post, now() - random() * interval '365 days'
  from (select ${userId(anyUser)} as person, ${postId(popularPost)} as post
        from generate_series(1, ${oversample(BOOKMARKS)}::int)) pairs
  limit ${BOOKMARKS}`,
);

await chunked(
  'comments',
  COMMENTS,
  (from, to) => sql`
  insert into comments (id, post_id, author_id, content, created_at, updated_at)
  select md5('bench-comment-' || i)::uuid, ${postId(popularPost)}, ${userId(anyUser)},
         (array['Love the colours','How long did this take?','Beautiful light','So calm','Wow'])[1 + i % 5],
         now() - random() * interval '300 days', now()
  from generate_series(${from}::int, ${to}::int) i`,
);

await linkRows(
  'comment votes',
  Math.floor(COMMENTS / 2),
  sql`
  insert into comment_votes (comment_id, user_id, kind)
  select distinct on (comment, person) comment, person, case when random() < 0.8 then 'up' else 'down' end
  from (select md5('bench-comment-' || (1 + floor(${Math.max(COMMENTS, 1)} * power(random(), 2)))::int)::uuid as comment,
               ${userId(anyUser)} as person
        from generate_series(1, ${oversample(Math.floor(COMMENTS / 2))}::int)) pairs
  limit ${Math.floor(COMMENTS / 2)}`,
);

await timed(`rebuild ${linkKeys.length} primary keys`, async () => {
  for (const key of linkKeys) {
    await db.execute(sql.raw(`alter table ${key.table} add constraint "${key.name}" ${key.definition}`));
  }
});
await timed('follows of bench_1: the 500 most popular others', () =>
  db.execute(sql`
    insert into follows (follower_id, followee_id)
    select ${userId(sql`1`)}, ${userId(sql`i`)} from generate_series(2, ${Math.min(501, USERS)}) i
    on conflict do nothing`),
);

// Before the secondary indexes come back: an update then writes only the row and its primary key.
await timed('counters from their rows', async () => {
  await db.execute(sql`
    update posts p set like_count = n.likes, dislike_count = n.dislikes, comment_count = n.comments
    from (
      select id, sum(likes)::int as likes, sum(dislikes)::int as dislikes, sum(comments)::int as comments
      from (
        select post_id as id, count(*) filter (where kind = 'like') as likes,
               count(*) filter (where kind = 'dislike') as dislikes, 0 as comments
        from post_reactions group by post_id
        union all select post_id, 0, 0, count(*) from comments group by post_id
      ) counts group by id
    ) n
    where n.id = p.id`);
  await db.execute(sql`
    update comments c set upvote_count = v.up, downvote_count = v.down
    from (select comment_id, count(*) filter (where kind = 'up') as up, count(*) filter (where kind = 'down') as down
          from comment_votes group by comment_id) v
    where v.comment_id = c.id`);
  // Each tag's count of shown works, which a trigger keeps in normal use (bulk loading runs without triggers).
  await db.execute(sql`
    insert into tags (tag, post_count)
    select tag, count(*)::int from posts, unnest(posts.tags) as used(tag) where posts.moderation_state is null
    group by tag
    on conflict (tag) do update set post_count = excluded.post_count`);
  // One pass per link table, joined back by id (not four correlated counts per user).
  await db.execute(sql`
    update users u set follower_count = n.followers, following_count = n.following, post_count = n.posts,
                       bookmark_count = n.bookmarks
    from (
      select id, sum(followers)::int as followers, sum(following)::int as following, sum(posts)::int as posts,
             sum(bookmarks)::int as bookmarks
      from (
        select followee_id as id, count(*) as followers, 0 as following, 0 as posts, 0 as bookmarks from follows group by 1
        union all select follower_id, 0, count(*), 0, 0 from follows group by 1
        union all select author_id, 0, 0, count(*), 0 from posts group by 1
        union all select user_id, 0, 0, 0, count(*) from bookmarks group by 1
      ) counts group by id
    ) n
    where n.id = u.id`);
});
await timed(`rebuild ${secondaryIndexes.length} indexes`, async () => {
  for (const { indexdef } of secondaryIndexes) await db.execute(sql.raw(indexdef));
});
// The counters' updates left a dead copy of most rows; index-only scans also need the visibility map.
await timed('vacuum and analyze', () => db.execute(sql`vacuum analyze`));

const [totals] = await queryRows<Record<string, number>>(
  db,
  sql`select (select count(*) from users)::int as users, (select count(*) from posts)::int as posts,
             (select count(*) from post_reactions)::int as reactions, (select count(*) from follows)::int as follows,
             (select count(*) from comments)::int as comments, (select count(*) from bookmarks)::int as bookmarks`,
);
console.log('Totals:', totals);
await database.close();
await release?.();

if (values.write) {
  const total = (performance.now() - seedStarted) / 1000;
  const table = [
    `Measured ${new Date().toISOString().slice(0, 16)}Z on ${os.cpus().length} × ${os.cpus()[0]?.model.split(' ')[0] ?? 'CPU'},`,
    `${Math.round(os.totalmem() / 2 ** 30)} GiB, ${database.kind}; load average at the end ${os.loadavg()[0]!.toFixed(1)}.`,
    '',
    '| step | seconds |',
    '|---|---:|',
    ...steps.map(([label, seconds]) => `| ${label} | ${seconds.toFixed(1)} |`),
    `| **total** (target ≤ 600 s at 100k users / 1M posts) | **${total.toFixed(1)}** |`,
    '',
    `Rows: ${Object.entries(totals ?? {})
      .map(([name, n]) => `${Number(n).toLocaleString('en')} ${name}`)
      .join(', ')}.`,
  ].join('\n');
  const file = 'docs/performance.md';
  const doc = await readFile(file, 'utf8');
  const [start, end] = ['<!-- bench:seed -->', '<!-- /bench:seed -->'];
  if (!doc.includes(start)) throw new Error(`${file} has no ${start} … ${end} section.`);
  await writeFile(file, `${doc.slice(0, doc.indexOf(start) + start.length)}\n${table}\n${doc.slice(doc.indexOf(end))}`);
  console.log(`Wrote the timings to ${file}.`);
}
