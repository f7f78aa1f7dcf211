/**
 * `npx tsx --conditions=source bench/media-fairness.ts`: how long another person's small upload waits
 * while one account sends 20 forty-megapixel pictures at once (issue 18). Prints the other person's
 * status and wait, and the statuses the flood got.
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { ASSETS_DIR } from '../apps/server/src/lib/assets.js';
import { createTestApp, signUp } from '../apps/server/src/test/helpers.js';

const FLOOD = Number(process.env.FLOOD ?? 20);

/** 8000 × 5000 (40 megapixels, the limit): sample art scaled up, so it stays under 20 MB as a JPEG. */
async function fortyMegapixels(): Promise<Buffer> {
  return sharp(path.join(ASSETS_DIR, 'seed', 'post-1.jpg'))
    .resize(8000, 5000, { fit: 'cover' })
    .jpeg({ quality: 85 })
    .toBuffer();
}

const big = await fortyMegapixels();
const small = await readFile(path.join(ASSETS_DIR, 'seed', 'post-2.jpg'));
const ctx = await createTestApp({ config: { logLevel: 'error' } });
const [flooder, other] = [await signUp(ctx.app), await signUp(ctx.app)];
await ctx.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;

const upload = async (data: Buffer, token: string) => {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), 'picture.jpg');
  const response = await fetch(`${base}/api/media`, { method: 'POST', body: form, headers: { authorization: token } });
  await response.arrayBuffer();
  return response.status;
};

console.log(
  `flood: ${FLOOD} uploads of 8000 × 5000 (${(big.length / 2 ** 20).toFixed(1)} MB); other: ${small.length} bytes`,
);
const started = performance.now();
const flood = Array.from({ length: FLOOD }, () => upload(big, flooder.token));
// Every flood upload has arrived and is processing or waiting before the other person sends theirs.
await new Promise((resolve) => setTimeout(resolve, 3000));
const otherStarted = performance.now();
const otherStatus = await upload(small, other.token);
const otherWait = performance.now() - otherStarted;
const floodStatuses = await Promise.all(flood);
const counts = new Map<number, number>();
for (const status of floodStatuses) counts.set(status, (counts.get(status) ?? 0) + 1);
console.log(`other person's upload: ${otherStatus} after ${(otherWait / 1000).toFixed(1)} s`);
console.log(
  `flood statuses: ${[...counts].map(([status, n]) => `${n} × ${status}`).join(', ')}; all done after ` +
    `${((performance.now() - started) / 1000).toFixed(1)} s`,
);
await ctx.close();
