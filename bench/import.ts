/**
 * `npm run bench:import`: importing a portfolio (issue 40) against the pictures' own pipeline.
 *
 * An Instagram export (the current layout) of POSTS posts with 2 pictures each, 12-megapixel camera-like JPEGs made
 * with sharp (bench:media's photo: the sample art at 4000 × 3000 with grain), is built in a child process (so that
 * its memory is not this one's), then, on the app as the tests build it with the sample data (this process; PGlite,
 * and PostgreSQL too when DATABASE_URL names a server, a fresh database there):
 *
 * 1. The pipeline's own pictures a second, bench:media's way: PIPELINE of the same JPEGs through processImage, one
 *    after the other (the import has one picture in the pipeline at a time, too), before the import and again after
 *    it (the median of both: a shared host's load drifts).
 * 2. GET /api/posts alone for DURATION seconds (autocannon at 20 connections, in a child process: bench:federation's
 *    load peer), the archive uploaded (POST /api/imports, streamed from disk) and started, then GET /api/posts for
 *    DURATION seconds while the import runs, and alone again after it: the pages during ÷ the mean of the two alone.
 * 3. The import's pictures a second: over the whole import (from the start's 202 to `done`), and over its part without
 *    the page load beside it (the progress sampled every 250 ms); ÷ the pipeline's own.
 * 4. This process's resident memory (RSS), sampled every 20 ms: at the start of the import and its peak meanwhile.
 *
 * `npm run bench:import -- --posts 100` (default 1,000; `--quick`: 20). Env: PIPELINE (pictures, default 8),
 * DURATION (seconds, default 10), DATABASE_URL. The 1,000 posts of the default take about 2,000 × the pipeline's time
 * of a picture (some 3 s on a 2-core host: well over an hour); docs/performance.md says the size it was run at.
 */
import { fork } from 'node:child_process';
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { ZipFile } from 'yazl';
import { queryRows } from '../apps/server/src/db/client.js';
import { ASSETS_DIR } from '../apps/server/src/lib/assets.js';
import { inspectImage, processImage } from '../apps/server/src/modules/media/index.js';
import { createTestApp, signUp } from '../apps/server/src/test/helpers.js';

const argAfter = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const POSTS = process.argv.includes('--quick') ? 20 : Number(argAfter('--posts') ?? 1000);
const PICTURES_A_POST = 2;
const PIPELINE = Number(process.env.PIPELINE ?? 8);
const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = 20;
/** Distinct photos made; each picture of the archive is one of them with its own comment segment (its own bytes). */
const BASES = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mb = (bytes: number) => bytes / 2 ** 20;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

// The archive (a child process) --------------------------------------------------------------------------------

/** A 4000 × 3000 camera-like JPEG (bench:media's): the sample art scaled up, with grain; `seed` varies the grain. */
async function cameraJpeg(seed: number): Promise<Buffer> {
  const { data, info } = await sharp(path.join(ASSETS_DIR, 'seed', `post-${(seed % 4) + 1}.jpg`))
    .resize(4000, 3000, { fit: 'cover' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  let state = seed + 1;
  for (let i = 0; i < data.length; i += 1) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    data[i] = Math.max(0, Math.min(255, data[i]! + 8 * ((state / 0x7fffffff) * 2 - 1)));
  }
  return sharp(data, { raw: info }).jpeg({ quality: 85 }).toBuffer();
}

/** The JPEG with a comment segment after its start: other bytes, the same pixels (the same work to process). */
function withComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, body, jpeg.subarray(2)]);
}

/**
 * Writes `dir`/archive.zip (posts_1.json newest first, as Instagram lists them, and media/posts/…) and the photos
 * as `dir`/base-N.jpg. Each picture's bytes are made when yazl asks for them, so the child holds one at a time.
 */
async function makeArchive(dir: string, posts: number): Promise<void> {
  const bases: Buffer[] = [];
  for (let i = 0; i < BASES; i += 1) {
    bases.push(await cameraJpeg(i));
    writeFileSync(path.join(dir, `base-${i}.jpg`), bases[i]!);
  }
  const start = Date.UTC(2016, 0, 1) / 1000;
  const index = Array.from({ length: posts }, (_, n) => {
    const post = posts - 1 - n;
    const at = start + post * 86_400;
    return {
      media: Array.from({ length: PICTURES_A_POST }, (_, p) => ({
        uri: `media/posts/${post}_${p}.jpg`,
        creation_timestamp: at,
        title: '',
      })),
      title: `Study ${post} #bench`,
      creation_timestamp: at,
    };
  });
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(index, null, 2)), 'your_instagram_activity/media/posts_1.json');
  for (let post = 0; post < posts; post += 1) {
    for (let p = 0; p < PICTURES_A_POST; p += 1) {
      const base = bases[(post * PICTURES_A_POST + p) % BASES]!;
      const comment = `bench ${post}.${p}`;
      zip.addReadStreamLazy(
        `media/posts/${post}_${p}.jpg`,
        { compress: false, size: base.length + 4 + comment.length },
        (done) => done(null, Readable.from([withComment(base, comment)])),
      );
    }
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path.join(dir, 'archive.zip')));
}

if (process.argv[2] === '--make-archive') {
  await makeArchive(process.argv[3]!, Number(process.argv[4]));
  process.exit(0);
}

// The measures (this process) ----------------------------------------------------------------------------------

interface PageRate {
  rps: number;
  seconds: number;
  non2xx: number;
  errors: number;
  p99: number;
}

interface Load {
  call<T>(op: string, args?: object): Promise<T>;
  close(): void;
}

/** bench:federation's load peer (autocannon in a child process), forked as `load`. */
async function startLoad(): Promise<Load> {
  const child = fork(fileURLToPath(new URL('./federation-peers.ts', import.meta.url)), ['load'], {
    execArgv: ['--import', 'tsx', '--conditions=source'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the load process exited (${code})`)));
  });
  let last = 0;
  const waiting = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  child.on('message', (message: { id: number; result?: unknown; error?: string }) => {
    const call = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) call?.reject(new Error(`load: ${message.error}`));
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

async function pagesFor(load: Load, url: string, seconds: number): Promise<PageRate> {
  await load.call('start', { url, connections: CONNECTIONS });
  await sleep(seconds * 1000);
  return load.call<PageRate>('stop');
}

/** Resident memory, sampled every 20 ms until stopped: its peak. */
function rssSampler() {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

interface Result {
  label: string;
  pipeline: { ms: number[]; perSecond: number; rssPeakMb: number };
  upload: { seconds: number; archiveMb: number };
  import: {
    seconds: number;
    pictures: number;
    imported: number;
    skipped: number;
    perSecond: number;
    /** Pictures a second outside the window of the page load. */
    quietPerSecond: number;
    state: string;
    error: string | null;
  };
  rss: { startMb: number; peakMb: number };
  pages: { before: PageRate; during: PageRate; after: PageRate };
}

async function measure(label: string, dir: string, bases: Buffer[]): Promise<Result> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'share-arts-bench-import-'));
  const ctx = await createTestApp({ seed: true, config: { logLevel: 'error', dataDir } });
  const load = await startLoad();
  try {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const pagesUrl = `${origin}/api/posts`;
    const artist = await signUp(ctx.app);
    const auth = { authorization: `Bearer ${artist.token}` };

    // 1. The pipeline alone, the same photos, one after the other (after one to warm libvips up); again after the
    // import, so that a host whose load drifts is measured on both sides of it.
    await processImage(bases[0]!, 'post', await inspectImage(bases[0]!));
    const pipelineRss = rssSampler();
    const ms: number[] = [];
    const pipelineRun = async (when: string) => {
      const times: number[] = [];
      for (let i = 0; i < PIPELINE; i += 1) {
        const data = withComment(bases[i % bases.length]!, `pipeline ${when} ${i}`);
        const started = performance.now();
        await processImage(data, 'post', await inspectImage(data));
        times.push(performance.now() - started);
      }
      console.log(`${label}: the pipeline alone, ${when}: ${times.map((n) => fmt(n)).join(', ')} ms a picture`);
      ms.push(...times);
    };
    await pipelineRun('before');
    const pipelinePeak = pipelineRss.stop();

    // 2. The pages alone, then the archive up and its preview.
    const before = await pagesFor(load, pagesUrl, DURATION);
    const archivePath = path.join(dir, 'archive.zip');
    const form = new FormData();
    form.append('file', await openAsBlob(archivePath, { type: 'application/zip' }), 'instagram.zip');
    const uploadStarted = performance.now();
    const uploaded = await fetch(`${origin}/api/imports`, { method: 'POST', headers: auth, body: form });
    if (uploaded.status !== 201)
      throw new Error(`POST /api/imports answered ${uploaded.status}: ${await uploaded.text()}`);
    const upload = {
      seconds: (performance.now() - uploadStarted) / 1000,
      archiveMb: mb(statSync(archivePath).size),
    };
    const { import: previewed } = (await uploaded.json()) as { import: { _id: string; preview: { pictures: number } } };
    console.log(`${label}: ${fmt(upload.archiveMb)} MB uploaded and previewed in ${upload.seconds.toFixed(1)} s`);

    // 3. The import, the pages beside it for DURATION seconds once it runs, its progress and this process's RSS.
    (globalThis as { gc?: () => void }).gc?.();
    const startRss = process.memoryUsage.rss();
    const rss = rssSampler();
    const progress: { at: number; pictures: number; loaded: boolean }[] = [];
    let loaded = false;
    const started = await fetch(`${origin}/api/imports/${previewed._id}/start`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    if (started.status !== 202) throw new Error(`…/start answered ${started.status}: ${await started.text()}`);
    const startedAt = performance.now();
    type Row = { state: string; pictures_done: number; imported: number; skipped: number; error: string | null };
    const read = async () =>
      (
        await queryRows<Row>(
          ctx.database.db,
          sql`select state, pictures_done, imported, skipped, error from imports where id = ${previewed._id}::uuid`,
        )
      )[0]!;
    let duringRun: Promise<PageRate> | undefined;
    let row = await read();
    let told = performance.now();
    while (row.state !== 'done' && row.state !== 'failed') {
      await sleep(250);
      row = await read();
      if (performance.now() - told > 30_000) {
        told = performance.now();
        const elapsed = (told - startedAt) / 1000;
        console.log(`${label}: ${row.pictures_done} pictures imported in ${fmt(elapsed)} s`);
      }
      progress.push({ at: performance.now(), pictures: row.pictures_done, loaded });
      // The pages' window opens once the import is under way (a few pictures in), and closes after DURATION s.
      if (!duringRun && row.pictures_done >= 2) {
        loaded = true;
        duringRun = pagesFor(load, pagesUrl, DURATION).then((rate) => {
          loaded = false;
          return rate;
        });
      }
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const peak = rss.stop();
    const during = await (duringRun ?? pagesFor(load, pagesUrl, DURATION));
    const after = await pagesFor(load, pagesUrl, DURATION);
    await pipelineRun('after');
    const pipeline = { ms, perSecond: 1000 / median(ms), rssPeakMb: mb(pipelinePeak) };
    let quietPictures = 0;
    let quietSeconds = 0;
    for (let i = 1; i < progress.length; i += 1) {
      if (progress[i - 1]!.loaded || progress[i]!.loaded) continue;
      quietPictures += progress[i]!.pictures - progress[i - 1]!.pictures;
      quietSeconds += (progress[i]!.at - progress[i - 1]!.at) / 1000;
    }
    return {
      label,
      pipeline,
      upload,
      import: {
        seconds,
        pictures: row.pictures_done,
        imported: row.imported,
        skipped: row.skipped,
        perSecond: row.pictures_done / seconds,
        quietPerSecond: quietSeconds > 0 ? quietPictures / quietSeconds : 0,
        state: row.state,
        error: row.error,
      },
      rss: { startMb: mb(startRss), peakMb: mb(peak) },
      pages: { before, during, after },
    };
  } finally {
    load.close();
    await ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'share-arts-bench-archive-'));
try {
  const madeAt = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--make-archive', dir, String(POSTS)], {
      execArgv: ['--import', 'tsx', '--conditions=source'],
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`making the archive: exit ${code}`))));
  });
  const bases = Array.from({ length: BASES }, (_, i) => readFileSync(path.join(dir, `base-${i}.jpg`)));
  console.log(
    `An Instagram export of ${fmt(POSTS)} posts, ${fmt(POSTS * PICTURES_A_POST)} pictures of 4000 × 3000 ` +
      `(${bases.map((b) => fmt(mb(b.length), 1)).join(', ')} MB), made in ${fmt((performance.now() - madeAt) / 1000)} s`,
  );

  const url = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  const results = [await measure('PGlite', dir, bases)];
  if (url) {
    process.env.DATABASE_URL = url;
    results.push(await measure('PostgreSQL', dir, bases));
  }

  const ratio = (r: Result) => r.pages.during.rps / ((r.pages.before.rps + r.pages.after.rps) / 2);
  console.log(
    `\n${fmt(POSTS)} posts, ${fmt(POSTS * PICTURES_A_POST)} pictures (12 MP JPEGs), ${os.cpus().length} cores, ` +
      `Node ${process.versions.node}, load average ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}\n`,
  );
  console.log(
    '| database | pipeline alone: ms a picture (median), pictures/s | import: pictures, seconds | import pictures/s (without the page load) | ÷ pipeline | GET /api/posts during ÷ alone (before, during, after req/s) | RSS at the start → peak |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of results) {
    console.log(
      `| ${r.label} | ${fmt(median(r.pipeline.ms))}, ${fmt(r.pipeline.perSecond, 3)} (peak RSS ${fmt(r.pipeline.rssPeakMb)} MB) | ` +
        `${fmt(r.import.pictures)} (${r.import.imported} works; ${r.import.state}), ${fmt(r.import.seconds, 1)} | ` +
        `${fmt(r.import.perSecond, 3)} (${fmt(r.import.quietPerSecond, 3)}) | ` +
        `${fmt(r.import.perSecond / r.pipeline.perSecond, 2)} (${fmt(r.import.quietPerSecond / r.pipeline.perSecond, 2)}) | ` +
        `${fmt(ratio(r), 2)} (${fmt(r.pages.before.rps)}, ${fmt(r.pages.during.rps)}, ${fmt(r.pages.after.rps)}) | ` +
        `${fmt(r.rss.startMb)} → ${fmt(r.rss.peakMb)} MB |`,
    );
  }
  console.log(`\n${JSON.stringify(results)}`);
  for (const r of results) {
    if (r.import.state !== 'done') console.log(`${r.label}: the import ended ${r.import.state}: ${r.import.error}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
