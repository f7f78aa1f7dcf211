/**
 * `npm run bench:export`: "Download your data" (issue 24) for an account with 1,000 posts and 1 GB of
 * original pictures. The fixture is written straight to the database and the media folder (uploading
 * 1 GB through the API would measure the uploads); the zip is then downloaded by curl, in another
 * process, into /dev/null, so this process is the server alone. Prints the time to stream the whole zip,
 * its size, and the server's resident set and heap: before, at their peak while streaming (sampled every
 * 20 ms), and after. POSTS and PICTURE_MB change the size; DATABASE_URL runs it on PostgreSQL.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.js';
import { createTestApp, signUp } from '../apps/server/src/test/helpers.js';

const POSTS = Number(process.env.POSTS ?? 1000);
const PICTURE_MB = Number(process.env.PICTURE_MB ?? 1);
const COMMENTS_PER_POST = 5;

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

const ctx = await createTestApp({ config: { logLevel: 'error' } });
const { db } = ctx.database;
const [artist, reader] = [await signUp(ctx.app), await signUp(ctx.app)];

// The fixture: POSTS posts of one picture each (its original: PICTURE_MB of random bytes, which no zip
// compresses), COMMENTS_PER_POST comments on each, a like of each.
const fixtureStarted = performance.now();
const mediaIds = Array.from({ length: POSTS }, () => randomUUID());
for (const id of mediaIds) {
  await writeFile(path.join(ctx.config.mediaDir, `${id}-original.jpg`), randomBytes(PICTURE_MB * 2 ** 20));
}
const ids = `{${mediaIds.join(',')}}`;
await queryRows(
  db,
  sql`insert into media (id, owner_id, purpose, original_file, original_mime, original_bytes, original_name, width,
        height, placeholder, variants, created_at)
      select id, ${artist.user._id}::uuid, 'post', id || '-original.jpg', 'image/jpeg', ${PICTURE_MB * 2 ** 20},
        'painting ' || n || '.jpg', 4000, 3000, '', '[]', now() - make_interval(mins => n::int)
      from unnest(${ids}::uuid[]) with ordinality as m(id, n)`,
);
await queryRows(
  db,
  sql`with made as (
        insert into posts (author_id, content, tags, created_at)
        select ${artist.user._id}::uuid, 'Painting number ' || n || ' #oil', '{oil}', now() - make_interval(mins => n)
        from generate_series(1, ${POSTS}) n
        returning id, created_at
      ), numbered as (select id, row_number() over (order by created_at desc) as n from made)
      insert into post_media (post_id, media_id, position)
      select numbered.id, m.id, 0 from numbered join unnest(${ids}::uuid[]) with ordinality as m(id, n) using (n)`,
);
await queryRows(
  db,
  sql`insert into comments (post_id, author_id, content)
      select p.id, ${reader.user._id}::uuid, 'A comment, number ' || k from posts p, generate_series(1, ${COMMENTS_PER_POST}) k
      where p.author_id = ${artist.user._id}::uuid`,
);
await queryRows(
  db,
  sql`update posts set comment_count = ${COMMENTS_PER_POST} where author_id = ${artist.user._id}::uuid`,
);
await queryRows(
  db,
  sql`insert into post_reactions (post_id, user_id, kind)
      select id, ${reader.user._id}::uuid, 'like' from posts where author_id = ${artist.user._id}::uuid`,
);
console.log(
  `fixture: ${POSTS} posts, ${POSTS} originals of ${PICTURE_MB} MB (${mb(POSTS * PICTURE_MB * 2 ** 20)}), ` +
    `${POSTS * COMMENTS_PER_POST} comments, ${POSTS} likes; written in ${((performance.now() - fixtureStarted) / 1000).toFixed(1)} s ` +
    `on ${ctx.database.kind}`,
);

await ctx.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
const link = await ctx.app.inject({
  method: 'POST',
  url: '/api/account/export',
  headers: { authorization: artist.token },
});
if (link.statusCode !== 201) throw new Error(`POST /api/account/export: ${link.statusCode} ${link.body}`);

global.gc?.();
const before = process.memoryUsage();
const peak = { rss: before.rss, heapUsed: before.heapUsed };
const sampler = setInterval(() => {
  const now = process.memoryUsage();
  peak.rss = Math.max(peak.rss, now.rss);
  peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
}, 20);

const started = performance.now();
const { stdout } = await promisify(execFile)('curl', [
  '--silent',
  '--fail',
  '--output',
  '/dev/null',
  '--write-out',
  '%{http_code} %{size_download}',
  `${base}${link.json().url}`,
]);
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const [status, bytes] = stdout.trim().split(' ').map(Number) as [number, number];
if (status !== 200) throw new Error(`GET the zip: ${status}`);
const after = process.memoryUsage();

console.log(
  `zip: ${mb(bytes)} in ${seconds.toFixed(1)} s (${(bytes / 2 ** 20 / seconds).toFixed(0)} MB/s)\n` +
    `server RSS: ${mb(before.rss)} before, ${mb(peak.rss)} at the peak (+${mb(peak.rss - before.rss)}), ${mb(after.rss)} after\n` +
    `server heap used: ${mb(before.heapUsed)} before, ${mb(peak.heapUsed)} at the peak (+${mb(peak.heapUsed - before.heapUsed)})`,
);
await ctx.close();
