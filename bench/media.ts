/**
 * `npm run bench:media`: the measurements behind the media module's choices — time per upload of a
 * 12-megapixel photo, bytes per variant, encoder settings compared, and GET /api/health latency
 * while uploads are processed.
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import sharp, { type Sharp } from 'sharp';
import { ASSETS_DIR } from '../apps/server/src/lib/assets.js';
import { createTestApp, signUp, type TestContext } from '../apps/server/src/test/helpers.js';
import { ENCODING, inspectImage, processImage } from '../apps/server/src/modules/media/index.js';

/** A 4000 × 3000 camera-like JPEG: sample art scaled up, with sensor-like grain, saved at quality 92. */
async function twelveMegapixelPhoto(): Promise<Buffer> {
  const { data, info } = await sharp(path.join(ASSETS_DIR, 'seed', 'post-1.jpg'))
    .resize(4000, 3000, { fit: 'cover' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  let seed = 1;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
  for (let i = 0; i < data.length; i += 1) data[i] = Math.max(0, Math.min(255, data[i]! + 10 * random()));
  return sharp(data, { raw: info }).jpeg({ quality: 92 }).toBuffer();
}

const ms = (from: number) => Math.round(performance.now() - from);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** PSNR in dB of an encoded variant against the reference pixels it was made from. */
async function psnr(encoded: Buffer, reference: Buffer): Promise<number> {
  const decoded = await sharp(encoded).removeAlpha().raw().toBuffer();
  let sum = 0;
  for (let i = 0; i < reference.length; i += 1) sum += (decoded[i]! - reference[i]!) ** 2;
  return 10 * Math.log10(255 ** 2 / (sum / reference.length));
}

const photo = await twelveMegapixelPhoto();
const ctx: TestContext = await createTestApp({ config: { logLevel: 'error' } });
const token = (await signUp(ctx.app)).token;
await ctx.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;

const uploadOverHttp = () => {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
  return fetch(`${base}/api/media`, { method: 'POST', body: form, headers: { authorization: token } });
};

async function healthLatencies(during: Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  let done = false;
  void during.finally(() => (done = true));
  while (!done) {
    const started = performance.now();
    const response = await fetch(`${base}/api/health`);
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return latencies;
}

const statuses = async (responses: Promise<Response[]>) => (await responses).map((response) => response.status);

console.log(`input: 4000 × 3000 JPEG, ${photo.length} bytes`);
const inspected = await inspectImage(photo);
for (let run = 0; run < 2; run += 1) {
  const started = performance.now();
  const processed = await processImage(photo, 'post', inspected);
  console.log(`processImage run ${run + 1}: ${ms(started)} ms`);
  if (run === 0) {
    console.log(`  original (${processed.original.ext}): ${processed.original.data.length} bytes`);
    for (const variant of processed.variants) {
      console.log(`  ${variant.format} ${variant.width}×${variant.height}: ${variant.data.length} bytes`);
    }
  }
}
// Encoder settings compared on the 2048 px variant.
const { data: reference, info } = await sharp(photo).resize(2048).raw().toBuffer({ resolveWithObject: true });
const raw = { raw: info };
const { avif, jpeg } = ENCODING;
const candidates: [string, () => Sharp][] = [
  [`avif q${avif.quality} e${avif.effort} 4:4:4 (chosen)`, () => sharp(reference, raw).avif(avif)],
  [
    `avif q${avif.quality} e${avif.effort} 4:2:0`,
    () => sharp(reference, raw).avif({ ...avif, chromaSubsampling: '4:2:0' }),
  ],
  [`avif q${avif.quality} e4 4:4:4`, () => sharp(reference, raw).avif({ ...avif, effort: 4 })],
  [`avif q${avif.quality} e2 4:4:4`, () => sharp(reference, raw).avif({ ...avif, effort: 2 })],
  [`jpeg q${jpeg.quality} mozjpeg 4:4:4 (chosen)`, () => sharp(reference, raw).jpeg(jpeg)],
  [`jpeg q${jpeg.quality} mozjpeg 4:2:0`, () => sharp(reference, raw).jpeg({ ...jpeg, chromaSubsampling: '4:2:0' })],
  ['webp q80', () => sharp(reference, raw).webp({ quality: 80 })],
];
for (const [name, make] of candidates) {
  const started = performance.now();
  const encoded = await make().toBuffer();
  const time = ms(started);
  console.log(
    `  2048 ${name}: ${encoded.length} bytes, ${time} ms, PSNR ${(await psnr(encoded, reference)).toFixed(2)} dB`,
  );
}

const idle = await healthLatencies(new Promise((resolve) => setTimeout(resolve, 500)));
console.log(`health idle: p50 ${percentile(idle, 0.5).toFixed(1)} ms, max ${Math.max(...idle).toFixed(1)} ms`);

let started = performance.now();
const one = uploadOverHttp();
const duringOne = await healthLatencies(one);
console.log(`status: ${(await one).status}`);
console.log(
  `1 upload (${ms(started)} ms end to end): health p50 ${percentile(duringOne, 0.5).toFixed(1)} ms, ` +
    `p95 ${percentile(duringOne, 0.95).toFixed(1)} ms, max ${Math.max(...duringOne).toFixed(1)} ms (n=${duringOne.length})`,
);

started = performance.now();
const four = Promise.all([1, 2, 3, 4].map(() => uploadOverHttp()));
const duringFour = await healthLatencies(four);
console.log(`statuses: ${(await statuses(four)).join(', ')}`);
console.log(
  `4 uploads at once (${ms(started)} ms end to end): health p50 ${percentile(duringFour, 0.5).toFixed(1)} ms, ` +
    `p95 ${percentile(duringFour, 0.95).toFixed(1)} ms, max ${Math.max(...duringFour).toFixed(1)} ms (n=${duringFour.length})`,
);
await ctx.close();
