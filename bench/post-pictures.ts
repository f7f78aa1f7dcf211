/**
 * `npx tsx --conditions=source bench/post-pictures.ts` (after `npm run build`): a post of 20 pictures
 * from the first upload to the post on the feed, as the composer does it: 20 JPEGs of 2000 × 1500
 * (about 1.9 MB each, a phone photo's size), two uploads at a time in the list's order, then
 * POST /api/posts with their mediaIds in order, then the feed's first page showing it. Prints each
 * upload's time and the totals. PICTURES=n changes the count.
 */
import path from 'node:path';
import sharp from 'sharp';
import pLimit from 'p-limit';
import { ASSETS_DIR } from '../apps/server/src/lib/assets.js';
import { startProductionServer } from './server.js';

const COUNT = Number(process.env.PICTURES ?? 20);

/** A distinct photo-like picture per index (tinted, so no two files are the same). */
async function picture(i: number): Promise<Buffer> {
  return sharp(path.join(ASSETS_DIR, 'seed', `post-${(i % 3) + 1}.jpg`))
    .resize(2000, 1500, { fit: 'cover' })
    .modulate({ hue: (i * 17) % 360 })
    .jpeg({ quality: 90 })
    .toBuffer();
}

const files = await Promise.all(Array.from({ length: COUNT }, (_, i) => picture(i)));
const server = await startProductionServer();
try {
  const signup = await fetch(`${server.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'bench_pictures',
      password: 'a long bench password 42',
      email: 'bench@example.com',
      fullname: 'Bench Pictures',
    }),
  });
  const { encodedToken } = (await signup.json()) as { encodedToken: string };
  const authorization = `Bearer ${encodedToken}`;

  const started = performance.now();
  const limit = pLimit(2);
  const times: number[] = [];
  const ids = await Promise.all(
    files.map((data, i) =>
      limit(async () => {
        const begun = performance.now();
        const form = new FormData();
        form.set('file', new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), `photo-${i + 1}.jpg`);
        form.set('alt', `Photo ${i + 1}`);
        const response = await fetch(`${server.url}/api/media`, {
          method: 'POST',
          body: form,
          headers: { authorization },
        });
        if (response.status !== 201) throw new Error(`upload ${i + 1}: ${response.status} ${await response.text()}`);
        times[i] = performance.now() - begun;
        return ((await response.json()) as { media: { _id: string } }).media._id;
      }),
    ),
  );
  const uploaded = performance.now();
  const created = await fetch(`${server.url}/api/posts`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json', prefer: 'return=minimal' },
    body: JSON.stringify({ content: `${COUNT} pictures`, mediaIds: ids }),
  });
  if (created.status !== 201) throw new Error(`post: ${created.status} ${await created.text()}`);
  const posted = performance.now();
  const feed = (await (await fetch(`${server.url}/api/feed`, { headers: { authorization } })).json()) as {
    posts: { media: { _id: string }[] }[];
  };
  const shown = performance.now();
  if (feed.posts[0]?.media.map((m) => m._id).join() !== ids.join()) throw new Error('the feed does not show the post');

  const sorted = [...times].sort((a, b) => a - b);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const mb = files.reduce((n, f) => n + f.length, 0) / 2 ** 20;
  console.log(`${COUNT} pictures, 2000 × 1500 JPEG, ${mb.toFixed(1)} MB in all, two uploads at a time`);
  console.log(
    `each upload (sent, processed, answered): median ${s(sorted[Math.floor(COUNT / 2)]!)}, ` +
      `min ${s(sorted[0]!)}, max ${s(sorted.at(-1)!)}`,
  );
  console.log(
    `all uploaded ${s(uploaded - started)}; post written ${s(posted - uploaded)}; on the feed ${s(shown - posted)}; ` +
      `first upload to visible ${s(shown - started)}`,
  );
} finally {
  await server.stop();
}
