/**
 * `npm run bench:media`: the measurements behind the media module's choices.
 *
 * 1. Processing per kind of input (issue 21): a 12-megapixel camera JPEG, a 6-megapixel PNG drawing, a
 *    12-megapixel Display P3 JPEG whose colours reach beyond sRGB (so it also gets P3 variants), and an
 *    animated GIF (90 frames of 640 × 360). Each is processed in a child process of its own, after a
 *    small warm-up, so that one input's memory does not hide the next one's: time per megapixel (of
 *    every frame), and the high-water marks of resident memory and V8 heap above the baseline, sampled
 *    every 5 ms.
 * 2. Bytes per variant and encoder settings compared on the 2048 px variant of the JPEG.
 * 3. Other requests while uploads are processed: GET /api/health and GET /api/posts, one after another
 *    every 20 ms, idle, during 1 upload and during 4 large uploads from 4 accounts (p50, p95, p99, max).
 *
 * `npm run bench:media -- --compare-node /usr/bin/node [--rounds 3]`: part 1 only, each input's child run in
 * turns on this Node and on the one named (the same code and the same sharp), so a change of runtime is
 * measured side by side: the median of each one's best time, and their ratio.
 */
import { execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import sharp, { type Sharp } from 'sharp';
import { ASSETS_DIR } from '../apps/server/src/lib/assets.js';
import { createTestApp, signUp, type TestContext } from '../apps/server/src/test/helpers.js';
import { ENCODING, inspectImage, processImage } from '../apps/server/src/modules/media/index.js';

const SAMPLE = path.join(ASSETS_DIR, 'seed', 'post-1.jpg');

/** Sensor-like grain: what makes a camera photo hard to compress. */
function grain(data: Buffer, amount: number): Buffer {
  let seed = 1;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
  for (let i = 0; i < data.length; i += 1) data[i] = Math.max(0, Math.min(255, data[i]! + amount * random()));
  return data;
}

/** A 4000 × 3000 camera-like JPEG: sample art scaled up, with grain, saved at quality 92. */
async function cameraJpeg(): Promise<Buffer> {
  const { data, info } = await sharp(SAMPLE)
    .resize(4000, 3000, { fit: 'cover' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(grain(data, 10), { raw: info }).jpeg({ quality: 92 }).toBuffer();
}

/** A 3000 × 2000 drawing as PNG: the sample art posterised to flat areas, as illustrations are. */
async function drawingPng(): Promise<Buffer> {
  const { data, info } = await sharp(SAMPLE)
    .resize(3000, 2000, { fit: 'cover' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i += 1) data[i] = data[i]! & 0xe0;
  return sharp(data, { raw: info }).png().toBuffer();
}

/**
 * The camera JPEG's pixels read as Display P3 (its profile spliced in, values unchanged): a phone
 * photo whose saturated colours lie beyond sRGB.
 */
async function p3Jpeg(): Promise<Buffer> {
  const jpeg = await cameraJpeg();
  const { icc } = await sharp(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#888' } })
      .withIccProfile('p3')
      .png()
      .toBuffer(),
  ).metadata();
  const payload = Buffer.concat([Buffer.from('ICC_PROFILE\0', 'latin1'), Buffer.from([1, 1]), icc!]);
  const header = Buffer.from([0xff, 0xe2, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

/** 90 frames of 640 × 360 panning across the sample art, 40 ms each: a short clip as a GIF. */
async function animatedGif(): Promise<Buffer> {
  const wide = await sharp(SAMPLE).resize(1600, 360, { fit: 'cover' }).png().toBuffer();
  const frames = await Promise.all(
    Array.from({ length: 90 }, (_, i) =>
      sharp(wide)
        .extract({ left: Math.round((i * (1600 - 640)) / 89), top: 0, width: 640, height: 360 })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } })
    .gif({ loop: 0, delay: 40 })
    .toBuffer();
}

/** A 256 × 192 pixel-art PNG: the sample art as 64 × 48 flat-coloured blocks of 4 × 4 pixels. */
async function pixelArtPng(): Promise<Buffer> {
  const { data, info } = await sharp(SAMPLE)
    .resize(64, 48, { fit: 'cover' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i += 1) data[i] = data[i]! & 0xc0;
  return sharp(data, { raw: info }).resize(256, 192, { kernel: 'nearest' }).png().toBuffer();
}

/** 24 frames of 96 × 64 pixel art panning across the posterised sample art, 100 ms each: a sprite loop. */
async function pixelArtGif(): Promise<Buffer> {
  const { data, info } = await sharp(SAMPLE)
    .resize(192, 64, { fit: 'cover' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i += 1) data[i] = data[i]! & 0xc0;
  const strip = await sharp(data, { raw: info }).png().toBuffer();
  const frames = await Promise.all(
    Array.from({ length: 24 }, (_, i) =>
      sharp(strip)
        .extract({ left: i * 4, top: 0, width: 96, height: 64 })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } })
    .gif({ loop: 0, delay: 100 })
    .toBuffer();
}

const INPUTS = {
  jpeg: { label: 'JPEG photo 4000 × 3000', make: cameraJpeg },
  png: { label: 'PNG drawing 3000 × 2000', make: drawingPng },
  p3: { label: 'Display P3 JPEG 4000 × 3000 (beyond sRGB)', make: p3Jpeg },
  animated: { label: 'animated GIF 640 × 360 × 90 frames', make: animatedGif },
  pixelArt: { label: 'pixel-art PNG 256 × 192', make: pixelArtPng },
  pixelAnimated: { label: 'pixel-art GIF 96 × 64 × 24 frames', make: pixelArtGif },
} as const;
type InputKind = keyof typeof INPUTS;

interface Measured {
  kind: InputKind;
  bytes: number;
  megapixels: number;
  ms: number[];
  rssPeakMb: number;
  heapPeakMb: number;
  variants: string;
  original: string;
}

const mb = (bytes: number) => bytes / 2 ** 20;

/** In a child process: one input, processed twice after a warm-up, its time and memory high-water. */
async function measureOne(kind: InputKind): Promise<Measured> {
  const data = await INPUTS[kind].make();
  const inspected = await inspectImage(data);
  // Warm-up: libvips, its codecs and thread pool start on a small picture first.
  const small = await sharp(SAMPLE).resize(600).jpeg().toBuffer();
  await processImage(small, 'post', await inspectImage(small));
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  let rssPeak = base.rss;
  let heapPeak = base.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    rssPeak = Math.max(rssPeak, now.rss);
    heapPeak = Math.max(heapPeak, now.heapUsed);
  }, 5);
  const ms: number[] = [];
  let last: Awaited<ReturnType<typeof processImage>> | undefined;
  for (let run = 0; run < 2; run += 1) {
    const started = performance.now();
    last = await processImage(data, 'post', inspected);
    ms.push(performance.now() - started);
  }
  clearInterval(sampler);
  const counts = new Map<string, number>();
  for (const variant of last!.variants) {
    const key = `${variant.animated ? 'animated ' : ''}${variant.gamut === 'p3' ? 'P3 ' : ''}${variant.format}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return {
    kind,
    bytes: data.length,
    megapixels: (inspected.width * inspected.height * inspected.frames) / 1e6,
    ms,
    rssPeakMb: mb(rssPeak - base.rss),
    heapPeakMb: mb(heapPeak - base.heapUsed),
    variants: [...counts].map(([key, n]) => `${n} ${key}`).join(', '),
    original: last!.original.removed.length === 0 ? 'kept as is' : `less ${last!.original.removed.join(', ')}`,
  };
}

function runChild(kind: InputKind, node = process.execPath): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [...process.execArgv, '--expose-gc', import.meta.filename, '--measure', kind], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Measured)
        : reject(new Error(`${kind}: exit ${code}`)),
    );
  });
}

const measureAt = process.argv.indexOf('--measure');
if (measureAt !== -1) {
  console.log(JSON.stringify(await measureOne(process.argv[measureAt + 1] as InputKind)));
  process.exit(0);
}

const ms = (from: number) => Math.round(performance.now() - from);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
console.log(`${new Date().toISOString()} on ${os.cpus().length} × ${cpu}, load average ${os.loadavg()[0]!.toFixed(1)}`);
try {
  console.log(execFileSync('git', ['log', '-1', '--format=%h %s'], { encoding: 'utf8' }).slice(0, 100));
} catch {
  // Not a checkout: no commit to name.
}

const compareAt = process.argv.indexOf('--compare-node');
if (compareAt !== -1) {
  const other = process.argv[compareAt + 1]!;
  const roundsAt = process.argv.indexOf('--rounds');
  const rounds = roundsAt === -1 ? 3 : Number(process.argv[roundsAt + 1]);
  const version = (node: string) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const nodes = [process.execPath, other];
  const [mine, theirs] = nodes.map(version);
  console.log(`\nProcessing on Node ${theirs} (${other}) and ${mine} in turns, ${rounds} rounds; best of 2 runs each.`);
  console.log(
    `\n| input | ${theirs} ms (rounds) | ${mine} ms (rounds) | ${mine} ÷ ${theirs} | RSS high-water ${theirs} / ${mine} |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: |');
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  for (const kind of Object.keys(INPUTS) as InputKind[]) {
    const times = nodes.map(() => [] as number[]);
    const rss = nodes.map(() => [] as number[]);
    for (let round = 0; round < rounds; round += 1) {
      // Alternate which goes first, so neither always runs on the warmer or the quieter machine.
      const order = round % 2 ? [1, 0] : [0, 1];
      for (const i of order) {
        const m = await runChild(kind, nodes[i]);
        times[i]!.push(Math.min(...m.ms));
        rss[i]!.push(m.rssPeakMb);
      }
    }
    const [t0, t1] = times.map(median) as [number, number];
    const round = (values: number[]) => values.map((v) => Math.round(v)).join(', ');
    console.log(
      `| ${INPUTS[kind].label} | ${Math.round(t1)} (${round(times[1]!)}) | ${Math.round(t0)} (${round(times[0]!)}) | ` +
        `${(t0 / t1).toFixed(2)} | +${median(rss[1]!).toFixed(0)} / +${median(rss[0]!).toFixed(0)} MB |`,
    );
  }
  process.exit(0);
}

// 1. Processing per kind of input.
console.log(
  '\n| input | size | megapixels | ms (2 runs) | ms per megapixel | RSS high-water | heap high-water | variants | original |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |');
for (const kind of Object.keys(INPUTS) as InputKind[]) {
  const m = await runChild(kind);
  const best = Math.min(...m.ms);
  console.log(
    `| ${INPUTS[kind].label} | ${mb(m.bytes).toFixed(1)} MB | ${m.megapixels.toFixed(1)} | ` +
      `${m.ms.map((v) => Math.round(v)).join(', ')} | ${Math.round(best / m.megapixels)} | ` +
      `+${m.rssPeakMb.toFixed(0)} MB | +${m.heapPeakMb.toFixed(0)} MB | ${m.variants} | ${m.original} |`,
  );
}

// 2. Bytes per variant, and encoder settings compared on the 2048 px variant.
const photo = await cameraJpeg();
const processed = await processImage(photo, 'post', await inspectImage(photo));
console.log(`\ninput: 4000 × 3000 JPEG, ${photo.length} bytes; original kept: ${processed.original.data.length} bytes`);
for (const variant of processed.variants) {
  console.log(`  ${variant.format} ${variant.width}×${variant.height}: ${variant.data.length} bytes`);
}

/** PSNR in dB of an encoded variant against the reference pixels it was made from. */
async function psnr(encoded: Buffer, reference: Buffer): Promise<number> {
  const decoded = await sharp(encoded).removeAlpha().raw().toBuffer();
  let sum = 0;
  for (let i = 0; i < reference.length; i += 1) sum += (decoded[i]! - reference[i]!) ** 2;
  return 10 * Math.log10(255 ** 2 / (sum / reference.length));
}
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

// 3. Other requests while uploads are processed.
const ctx: TestContext = await createTestApp({ config: { logLevel: 'error' } });
const tokens = await Promise.all([1, 2, 3, 4].map(async () => (await signUp(ctx.app)).token));
await ctx.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;

const uploadOverHttp = (token: string) => {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
  return fetch(`${base}/api/media`, { method: 'POST', body: form, headers: { authorization: token } });
};

/** Latencies of GET /api/health and GET /api/posts, taken in turns every 20 ms until `during` settles. */
async function latencies(during: Promise<unknown>): Promise<number[]> {
  const taken: number[] = [];
  let done = false;
  void during.finally(() => (done = true));
  for (let i = 0; !done; i += 1) {
    const started = performance.now();
    const response = await fetch(`${base}${i % 2 ? '/api/posts' : '/api/health'}`);
    await response.arrayBuffer();
    taken.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return taken;
}
const summary = (values: number[]) =>
  `p50 ${percentile(values, 0.5).toFixed(1)} ms, p95 ${percentile(values, 0.95).toFixed(1)} ms, ` +
  `p99 ${percentile(values, 0.99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms (n=${values.length})`;

console.log('\nother requests (GET /api/health and GET /api/posts in turns):');
console.log(`  idle: ${summary(await latencies(new Promise((resolve) => setTimeout(resolve, 2000))))}`);
let started = performance.now();
const one = uploadOverHttp(tokens[0]!);
const duringOne = await latencies(one);
console.log(`  1 upload (${(await one).status}, ${ms(started)} ms end to end): ${summary(duringOne)}`);
started = performance.now();
const four = Promise.all(tokens.map((token) => uploadOverHttp(token)));
const duringFour = await latencies(four);
const statuses = (await four).map((response) => response.status).join(', ');
console.log(`  4 uploads at once (${statuses}; ${ms(started)} ms end to end): ${summary(duringFour)}`);
await ctx.close();
