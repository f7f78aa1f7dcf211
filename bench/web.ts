/**
 * `npm run bench:web [-- --write] [--runs 3] [--dist apps/web/dist] [--skip-lighthouse]`: the web app's
 * budgets, measured in the system Chromium against the production server with the sample data.
 *
 * Builds nothing: run `npm run build` first. Starts `apps/server/dist/main.js` on a fresh temporary
 * DATA_DIR (embedded database, the 5 sample users and 4 sample posts) with RATE_LIMITS=off, then:
 *
 * (a) JS and CSS a first visit downloads, per route (/landing, /login, the feed, a post page): every
 *     script and stylesheet response of a cold load in a fresh browser context, with raw, gzip (level 9)
 *     and brotli (quality 11) sizes computed here from the files' bytes — the server may not compress,
 *     and static assets are best served precompressed at the highest level.
 * (b) Lighthouse (mobile defaults: emulated Moto G Power, simulated slow 4G and 4× CPU) on the same four
 *     pages: performance, accessibility and best-practices scores, LCP, TBT and CLS; the median run of
 *     `--runs` (by performance score) is reported.
 * (c) Image delivery: the pictures a first screenful of the feed fetches at 375 px (DPR 2) and at 1440 px
 *     (DPR 1), their bytes, and the variant each <img> picked (`currentSrc`) against the width it is drawn.
 * (d) The feed with 1,000 more posts: made through the API, all pages loaded by scrolling to the end,
 *     then the DOM node count and frame times while scrolling for 3 s (requestAnimationFrame deltas in
 *     the page, and main-thread long tasks and frame intervals from Chromium's performance trace).
 *
 * `--locale <tag>` (issue 43) opens the pages in a browser whose language is `<tag>` (e.g. `ja-JP`, `ar`) for (a):
 * the app then loads the words of its chunks in that language, which its first visit counts.
 * (a') The language switch (issue 43): the scripts that switching Settings' language from English to each other
 * language loads; `--page settings` runs it alone, `--skip-switch` skips it.
 *
 * `--dist <dir>` serves another build (WEB_DIST_DIR), e.g. a copy of an older one, to compare.
 * `--no-session-cookie` opens the signed-in pages with the token alone, without the session cookie signing in
 * sets beside it: the feed is then drawn by the app in the browser, as before it was drawn on the server.
 *
 * `--repeat-visit` (issue 44): Lighthouse on Home a second time in the same profile, after a first visit that let the
 * service worker install and a reload under its control: the scripts, stylesheets and pictures come from the
 * worker's caches (Home's HTML is the server's drawing of the feed, asked of the network first: docs/pwa.md). The
 * median LCP of `--runs` is reported against the target (1.0 s); `--skip-lighthouse` skips it.
 *
 * While working on one page: `--page <name>` (repeatable: landing, login, feed, post, post-visitor, profile,
 * tag, profile-visitor, tag-visitor) keeps only those pages, `--skip-feed` skips (d), and `--reports <dir>` keeps every Lighthouse report (JSON) and its
 * Chromium trace there, to read the diagnostics (main-thread work, bootup time, LCP breakdown, the network
 * requests) and the tasks behind them (the trace opens in DevTools' Performance panel). `--write` needs
 * the whole run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { startProductionServer } from './server.js';

// The functions given to page.evaluate run in the browser. The bench's tsconfig has no DOM library
// (adding it would retype Node's globals in the other scripts), so the few browser globals used are
// declared here, in this module only.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;
declare const document: any;
type HTMLImageElement = any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const { values } = parseArgs({
  options: {
    write: { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
    dist: { type: 'string' },
    'skip-lighthouse': { type: 'boolean', default: false },
    posts: { type: 'string', default: '1000' },
    page: { type: 'string', multiple: true },
    'skip-feed': { type: 'boolean', default: false },
    reports: { type: 'string' },
    'no-session-cookie': { type: 'boolean', default: false },
    'repeat-visit': { type: 'boolean', default: false },
    locale: { type: 'string' },
    'skip-switch': { type: 'boolean', default: false },
  },
});
if (values.write && (values.page || values['skip-feed'] || values['skip-lighthouse'])) {
  throw new Error('--write rewrites the whole section: run every part (no --page, --skip-feed or --skip-lighthouse).');
}
const LIGHTHOUSE_RUNS = Math.max(1, Number(values.runs));
const EXTRA_POSTS = Number(values.posts);
const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const ACCOUNT = { username: 'mira', password: 'share-arts-guest' };
const TARGETS = {
  landingJsGzip: 100 * 1024,
  feedJsGzip: 150 * 1024,
  performance: 95,
  accessibility: 100,
  bestPractices: 95,
  cls: 0.02,
  /** Home's LCP on a repeat visit, with the shell from the service worker's cache (issue 44). */
  repeatVisitLcp: 1000,
  /** The scripts switching language in Settings loads (issue 43). */
  languageSwitchJsGzip: 15 * 1024,
};

// ---------------------------------------------------------------------------------------------------
// The server

const server = await startProductionServer(values.dist ? { WEB_DIST_DIR: path.resolve(values.dist) } : {});
const base = server.url;

async function api<T>(method: string, route: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: token } : {}),
      prefer: 'return=minimal',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const { encodedToken: token } = await api<{ encodedToken: string }>('POST', '/api/auth/login', ACCOUNT);
const samplePosts = await api<{ posts: { _id: string; picture: unknown; media?: unknown[] }[] }>(
  'GET',
  '/api/posts',
  undefined,
  token,
);
// The heaviest post page: the one with the most pictures (a carousel), else one with a picture.
const pictureCount = (post: { media?: unknown[]; picture: unknown }) => post.media?.length ?? (post.picture ? 1 : 0);
const samplePost = [...samplePosts.posts].sort((a, b) => pictureCount(b) - pictureCount(a))[0];
if (!samplePost) throw new Error('The sample data has no posts.');
// The tag page of the sample post's first #tag (the sample data tags every post).
const sampleTag =
  /#([\p{L}\p{N}_]+)/u.exec((samplePost as { content?: string }).content ?? '')?.[1]?.toLowerCase() ?? 'painting';

const ALL_PAGES = [
  { key: 'landing', name: '/landing', path: '/landing', signedIn: false },
  { key: 'login', name: '/login', path: '/login', signedIn: false },
  { key: 'feed', name: 'feed (/)', path: '/', signedIn: true },
  { key: 'post', name: 'post page', path: `/posts/${encodeURIComponent(samplePost._id)}`, signedIn: true },
  // Issue 22: a shared link's pages. A visitor's post page carries its post inline, a profile and a tag page.
  {
    key: 'post-visitor',
    name: 'post page, signed out',
    path: `/posts/${encodeURIComponent(samplePost._id)}`,
    signedIn: false,
  },
  { key: 'profile', name: 'profile', path: `/${ACCOUNT.username}`, signedIn: true },
  { key: 'tag', name: 'tag page', path: `/tags/${sampleTag}`, signedIn: true },
  // A shared profile and tag page as a visitor opens them: drawn on the server (apps/web/src/entry-server.tsx).
  { key: 'profile-visitor', name: 'profile, signed out', path: `/${ACCOUNT.username}`, signedIn: false },
  { key: 'tag-visitor', name: 'tag page, signed out', path: `/tags/${sampleTag}`, signedIn: false },
] as const;
const PAGES = values.page ? ALL_PAGES.filter((page) => values.page!.includes(page.key)) : ALL_PAGES;
// `settings`: the language switch's scripts (a') only.
if (PAGES.length === 0 && !values.page?.includes('settings'))
  throw new Error(`--page takes ${ALL_PAGES.map((page) => page.key).join(', ')} and settings.`);

const browser: Browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
const browserVersion = browser.version();

async function newContext(
  signedIn: boolean,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: base,
    ...(values.locale ? { locale: values.locale } : {}),
    ...options,
  });
  if (signedIn) {
    await context.addInitScript((value) => window.localStorage.setItem('token', value), token);
  }
  return context;
}

// ---------------------------------------------------------------------------------------------------
// (a) JS and CSS per route

interface Sizes {
  files: number;
  raw: number;
  gzip: number;
  brotli: number;
}
const emptySizes = (): Sizes => ({ files: 0, raw: 0, gzip: 0, brotli: 0 });
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function addFile(sizes: Sizes, bytes: Buffer) {
  sizes.files += 1;
  sizes.raw += bytes.length;
  sizes.gzip += gzipSync(bytes, { level: 9 }).length;
  sizes.brotli += brotliCompressSync(bytes, {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  }).length;
}

async function routeAssets(page: (typeof PAGES)[number]) {
  const context = await newContext(page.signedIn, { viewport: { width: 1280, height: 900 } });
  const tab = await context.newPage();
  const bodies: Promise<{ type: string; url: string; body: Buffer }>[] = [];
  const documents: Promise<Buffer>[] = [];
  tab.on('response', (response) => {
    const type = response.request().resourceType();
    if (type === 'document' && response.url().startsWith(base)) {
      const read = response.body();
      read.catch(() => undefined);
      documents.push(read);
    }
    if ((type === 'script' || type === 'stylesheet') && response.url().startsWith(base)) {
      const read = response.body().then((body) => ({ type, url: response.url(), body }));
      // A file that arrives after the count was taken is read after the page closed: not counted, not a crash.
      read.catch(() => undefined);
      bodies.push(read);
    }
  });
  await tab.goto(page.path, { waitUntil: 'networkidle' });
  await tab.waitForTimeout(500);
  const js = emptySizes();
  const css = emptySizes();
  const names: string[] = [];
  for (const { type, url, body } of await Promise.all(bodies)) {
    addFile(type === 'script' ? js : css, body);
    names.push(new URL(url).pathname.replace('/assets/', ''));
  }
  // What the pages carry inline (the head script; a drawn page's stylesheets) counts too, as one file each.
  for (const html of (await Promise.allSettled(documents)).flatMap((read) =>
    read.status === 'fulfilled' ? [read.value.toString('utf8')] : [],
  )) {
    const scripts = [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)]
      .filter(([, attributes = '']) => !/\b(src|type)\s*=/i.test(attributes))
      .map((match) => match[2]);
    const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/gi)].map((match) => match[1]);
    if (scripts.length > 0) {
      addFile(js, Buffer.from(scripts.join('\n')));
      names.push('(inline script)');
    }
    if (styles.length > 0) {
      addFile(css, Buffer.from(styles.join('\n')));
      names.push('(inline styles)');
    }
  }
  const finalPath = new URL(tab.url()).pathname;
  await context.close();
  return { name: page.name, js, css, names, finalPath };
}

const assetResults = [];
for (const page of PAGES) {
  const result = await routeAssets(page);
  assetResults.push(result);
  console.log(
    `${result.name} (ended at ${result.finalPath}): JS ${result.js.files} files ${kb(result.js.raw)} raw, ` +
      `${kb(result.js.gzip)} gzip, ${kb(result.js.brotli)} br; CSS ${result.css.files} files ` +
      `${kb(result.css.raw)} raw, ${kb(result.css.gzip)} gzip, ${kb(result.css.brotli)} br\n    ${result.names.join(', ')}`,
  );
}

// ---------------------------------------------------------------------------------------------------
// (a') Switching language (issue 43): in Settings, signed in, in an English browser, the scripts the switch to each
// other language loads (its words for the chunks already here), until the page is in that language.

const SWITCH_TO = ['es', 'pt-BR', 'ja', 'ar'] as const;

async function languageSwitch(locale: (typeof SWITCH_TO)[number]) {
  // The account's language follows it: back to "the browser's" (English here) before each switch.
  await api('POST', '/api/users/edit', { userData: { settings: { language: null } } }, token);
  const context = await newContext(true, { viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const tab = await context.newPage();
  await tab.goto('/settings', { waitUntil: 'networkidle' });
  await tab.waitForTimeout(500);
  const bodies: Promise<Buffer>[] = [];
  tab.on('response', (response) => {
    if (response.request().resourceType() === 'script' && response.url().startsWith(base)) {
      const read = response.body();
      read.catch(() => undefined);
      bodies.push(read);
    }
  });
  await tab.getByRole('combobox', { name: 'Language of Share Arts' }).selectOption(locale);
  await tab.waitForFunction((lang) => document.documentElement.lang === lang, locale);
  await tab.waitForLoadState('networkidle');
  const js = emptySizes();
  for (const body of await Promise.all(bodies)) addFile(js, body);
  await context.close();
  return { locale, js };
}

const switchResults: Awaited<ReturnType<typeof languageSwitch>>[] = [];
if (!values['skip-switch'] && (!values.page || values.page.includes('settings'))) {
  for (const locale of SWITCH_TO) {
    const result = await languageSwitch(locale);
    switchResults.push(result);
    console.log(`switch to ${locale} in Settings: JS ${result.js.files} files ${kb(result.js.gzip)} gzip`);
  }
}

// ---------------------------------------------------------------------------------------------------
// (c) Image delivery for a first screenful of the feed

interface PictureChoice {
  currentSrc: string;
  drawnWidth: number;
  neededWidth: number;
  naturalWidth: number;
  inViewport: boolean;
}

async function imageDelivery(width: number, height: number, deviceScaleFactor: number) {
  const context = await newContext(true, { viewport: { width, height }, deviceScaleFactor });
  const tab = await context.newPage();
  const images: Promise<number>[] = [];
  tab.on('response', (response) => {
    if (response.request().resourceType() === 'image' && response.url().startsWith(`${base}/media/`)) {
      images.push(response.body().then((body) => body.length));
    }
  });
  await tab.goto('/', { waitUntil: 'networkidle' });
  await tab.waitForTimeout(500);
  const fetched = [...images];
  const pictures: PictureChoice[] = await tab.$$eval(
    '[role="feed"] article picture img, [role="feed"] article img',
    (nodes) =>
      Promise.all(
        [...new Set(nodes as HTMLImageElement[])]
          .filter((img) => !img.closest('a[aria-hidden="true"]'))
          .map(async (img) => {
            const rect = img.getBoundingClientRect();
            // A srcset image's naturalWidth is divided by the density the browser chose; the file's own
            // width is what a plain <img> of the same address reports (from the cache).
            const probe = new window.Image();
            probe.src = img.currentSrc;
            await probe.decode().catch(() => undefined);
            return {
              currentSrc: img.currentSrc,
              drawnWidth: Math.round(rect.width),
              neededWidth: Math.round(rect.width * window.devicePixelRatio),
              naturalWidth: probe.naturalWidth || img.naturalWidth,
              inViewport: rect.top < window.innerHeight && rect.bottom > 0,
            };
          }),
      ),
  );
  const bytes = (await Promise.all(fetched)).reduce((sum, n) => sum + n, 0);
  await context.close();
  return { width, deviceScaleFactor, requests: fetched.length, bytes, pictures };
}

const imageResults = [await imageDelivery(375, 812, 2), await imageDelivery(1440, 900, 1)];
for (const result of imageResults) {
  console.log(
    `images at ${result.width} px (DPR ${result.deviceScaleFactor}): ${result.requests} files, ${kb(result.bytes)}`,
  );
  for (const picture of result.pictures) {
    console.log(
      `    ${picture.inViewport ? 'on screen ' : 'below    '} drawn ${picture.drawnWidth} px (needs ${picture.neededWidth}) ` +
        `← ${picture.naturalWidth} px ${picture.currentSrc.replace(base, '')}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// (b) Lighthouse

interface LighthouseFigures {
  name: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** Lighthouse's measure of this host's CPU (higher is faster); its simulated throttling scales by it. */
  benchmarkIndex: number;
  finalUrl: string;
  problems: string[];
  /** Lighthouse's code when the run itself failed (its scores then mean nothing). */
  runtimeError?: string;
}

/**
 * One Lighthouse run on a fresh Chromium profile.
 *
 * Signed-in pages read the token from localStorage, which request headers cannot supply. So the token is
 * written into a throw-away user-data-dir first: playwright-core's launchPersistentContext opens the
 * origin with every request answered by an empty page (so nothing of the app lands in the HTTP cache)
 * and sets localStorage there. chrome-launcher then starts Chromium on that same profile and Lighthouse
 * audits it with `disableStorageReset` (otherwise it would clear the origin's storage, token included,
 * before loading). The cache is still cold: the profile never fetched an asset.
 */
async function lighthouseRun(
  page: (typeof PAGES)[number],
  run: number,
  /** A repeat visit (issue 44): the profile visits the page first, and again under the service worker's control. */
  warm = false,
): Promise<LighthouseFigures> {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'share-arts-lighthouse-'));
  try {
    if (page.signedIn) {
      const context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROME_PATH,
        args: CHROME_FLAGS,
      });
      const tab = context.pages()[0] ?? (await context.newPage());
      await tab.route('**/*', (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html>' }),
      );
      await tab.goto(`${base}/landing`);
      await tab.evaluate((value) => window.localStorage.setItem('token', value), token);
      if (warm) {
        // The first visit: the worker installs (precaching the shell and the chunks) and takes the page; the reload
        // under its control fills its caches (the feed's answer, the token check, the pictures).
        await tab.unroute('**/*');
        await tab.goto(`${base}${page.path}`, { waitUntil: 'networkidle' });
        await tab.evaluate(
          `navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller || new Promise((resolve) =>
            navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true })))`,
        );
        await tab.reload({ waitUntil: 'networkidle' });
        const controlled = await tab.evaluate('!!navigator.serviceWorker.controller');
        if (!controlled) throw new Error('Repeat visit: the service worker does not control the page.');
      }
      if (!values['no-session-cookie']) {
        // The session cookie signing in sets beside the token (issue 22): `/` is then drawn on the server.
        const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
        await context.addCookies([
          { name: 'sa_session', value: token, url: base, httpOnly: true, sameSite: 'Lax', expires: exp },
        ]);
      }
      await context.close();
    }
    const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, userDataDir });
    try {
      const result = await lighthouse(`${base}${page.path}`, {
        port: chrome.port,
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        // A repeat visit keeps what the first one stored (the worker, its caches, the HTTP cache).
        disableStorageReset: page.signedIn || warm,
      });
      if (!result) throw new Error('Lighthouse returned no result.');
      const { lhr } = result;
      if (values.reports) {
        await mkdir(values.reports, { recursive: true });
        const name = path.join(values.reports, `${page.key}-${run + 1}`);
        await writeFile(`${name}.json`, JSON.stringify(lhr));
        // A failed run (see runtimeError below) may come back without a trace.
        if (result.artifacts.Trace) await writeFile(`${name}.trace.json`, JSON.stringify(result.artifacts.Trace));
      }
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const problems: string[] = [];
      for (const id of ['performance', 'accessibility', 'best-practices']) {
        for (const ref of lhr.categories[id]?.auditRefs ?? []) {
          const audit = lhr.audits[ref.id];
          if (!audit || audit.score === null || audit.score >= 0.9 || ref.weight === 0) continue;
          if (audit.scoreDisplayMode !== 'binary' && audit.scoreDisplayMode !== 'numeric') continue;
          problems.push(`${id}: ${audit.id} (${audit.displayValue ?? audit.score})`);
        }
      }
      return {
        name: page.name,
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
        tbt: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
        cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
        benchmarkIndex: lhr.environment.benchmarkIndex,
        finalUrl: lhr.finalDisplayedUrl,
        problems,
        runtimeError: lhr.runtimeError?.code,
      };
    } finally {
      chrome.kill();
    }
  } finally {
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

const lighthouseResults: LighthouseFigures[] = [];
if (!values['skip-lighthouse']) {
  for (const page of PAGES) {
    const runs: LighthouseFigures[] = [];
    for (let run = 0; run < LIGHTHOUSE_RUNS; run++) {
      // Now and then Lighthouse's own trace comes back unusable (NO_NAVSTART, NO_FCP…): such a run scores 0
      // whatever the page does, so it is run again rather than counted.
      for (let attempt = 1; ; attempt++) {
        const result = await lighthouseRun(page, run);
        if (!result.runtimeError) {
          runs.push(result);
          break;
        }
        console.log(`Lighthouse ${page.name}: run ${run + 1} failed (${result.runtimeError}), attempt ${attempt}`);
        if (attempt >= 3) throw new Error(`Lighthouse failed ${attempt} times on ${page.name}: ${result.runtimeError}`);
      }
    }
    runs.sort((a, b) => a.performance - b.performance);
    const median = runs[Math.floor(runs.length / 2)]!;
    lighthouseResults.push(median);
    console.log(
      `Lighthouse ${page.name} (${median.finalUrl.replace(base, '')}): performance ${runs.map((r) => r.performance).join('/')}, ` +
        `accessibility ${median.accessibility}, best practices ${median.bestPractices}, LCP ${Math.round(median.lcp)} ms, ` +
        `TBT ${Math.round(median.tbt)} ms, CLS ${median.cls.toFixed(3)}, CPU benchmark index ${Math.round(median.benchmarkIndex)}`,
    );
    for (const problem of median.problems) console.log(`    ${problem}`);
  }
}

// Issue 44: Home again, in a profile that visited it already (the service worker's caches warm).
let repeatVisit: (LighthouseFigures & { lcps: number[] }) | undefined;
if (values['repeat-visit'] && !values['skip-lighthouse']) {
  const feedPage = ALL_PAGES.find((page) => page.key === 'feed')!;
  const runs: LighthouseFigures[] = [];
  for (let run = 0; run < LIGHTHOUSE_RUNS; run++) {
    for (let attempt = 1; ; attempt++) {
      const result = await lighthouseRun(feedPage, run, true);
      if (!result.runtimeError) {
        runs.push(result);
        break;
      }
      console.log(`Lighthouse repeat visit: run ${run + 1} failed (${result.runtimeError}), attempt ${attempt}`);
      if (attempt >= 3)
        throw new Error(`Lighthouse failed ${attempt} times on the repeat visit: ${result.runtimeError}`);
    }
  }
  runs.sort((a, b) => a.lcp - b.lcp);
  repeatVisit = { ...runs[Math.floor(runs.length / 2)]!, lcps: runs.map((r) => Math.round(r.lcp)) };
  console.log(
    `Lighthouse repeat visit of ${feedPage.name}: LCP median ${Math.round(repeatVisit.lcp)} ms ` +
      `(runs ${repeatVisit.lcps.join('/')} ms; target ≤ ${TARGETS.repeatVisitLcp} ms: ` +
      `${repeatVisit.lcp <= TARGETS.repeatVisitLcp ? 'met' : 'NOT met'}), performance ${repeatVisit.performance}, ` +
      `TBT ${Math.round(repeatVisit.tbt)} ms, CLS ${repeatVisit.cls.toFixed(3)}`,
  );
}

// ---------------------------------------------------------------------------------------------------
// (d) The feed with 1,000 more posts

async function createPosts(count: number) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = (next += 1);
      // A reused keep-alive socket the server has just closed resets now and then: try again.
      for (let attempt = 1; ; attempt++) {
        try {
          await api('POST', '/api/posts', { content: `Bench post ${n}: studies in light and colour.` }, token);
          break;
        } catch (error) {
          if (attempt >= 3 || !(error instanceof TypeError)) throw error;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

async function bigFeed() {
  const started = performance.now();
  await createPosts(EXTRA_POSTS);
  console.log(`created ${EXTRA_POSTS} posts in ${Math.round(performance.now() - started)} ms`);
  const context = await newContext(true, { viewport: { width: 1280, height: 900 } });
  const tab = await context.newPage();
  await tab.goto('/', { waitUntil: 'networkidle' });
  await tab.locator('[role="feed"]').waitFor();
  const loadStarted = performance.now();
  const articles = tab.locator('[role="feed"] > article');
  const caughtUp = tab.getByText('You are all caught up.');
  while (!(await caughtUp.isVisible())) {
    const before = await articles.count();
    await tab.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await tab
      .waitForFunction((n) => document.querySelectorAll('[role="feed"] > article').length > n, before, {
        timeout: 10_000,
      })
      .catch(() => undefined);
    if (performance.now() - loadStarted > 600_000) throw new Error('The feed did not reach its end in 10 minutes.');
  }
  const loadMs = performance.now() - loadStarted;
  const posts = await articles.count();
  const domNodes = await tab.evaluate(() => document.getElementsByTagName('*').length);
  const renderedCards = await tab.evaluate(
    () => [...document.querySelectorAll('[role="feed"] > article')].filter((card) => card.childElementCount > 0).length,
  );

  // 3 s of scrolling back up at a steady 3,000 px/s, one step per animation frame.
  await tab.waitForTimeout(1000);
  await browser.startTracing(tab, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'toplevel', 'blink.user_timing'],
  });
  // A string, not a function: tsx would wrap the named inner function in a `__name` helper the page lacks.
  const deltas = await tab.evaluate<number[]>(`new Promise((resolve) => {
    const result = [];
    let start = 0;
    let last = 0;
    const step = (now) => {
      result.push(now - last);
      window.scrollBy(0, -3 * (now - last));
      last = now;
      if (now - start < 3000) requestAnimationFrame(step);
      else resolve(result.slice(1));
    };
    requestAnimationFrame((now) => {
      start = last = now;
      requestAnimationFrame(step);
    });
  })`);
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  await context.close();

  // The page's main thread: the CrRendererMain thread with the most tasks.
  const events = trace.traceEvents;
  const mainThreads = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const tasksByThread = new Map<string, TraceEvent[]>();
  for (const event of events) {
    const key = `${event.pid}:${event.tid}`;
    if (
      (event.name === 'RunTask' || event.name === 'ThreadControllerImpl::RunTask') &&
      event.ph === 'X' &&
      mainThreads.has(key)
    ) {
      tasksByThread.set(key, [...(tasksByThread.get(key) ?? []), event]);
    }
  }
  const tasks = [...tasksByThread.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  const longTasks = tasks.filter((task) => (task.dur ?? 0) > 50_000);
  const mainPid = tasks[0]?.pid;
  const frames = events
    .filter((e) => e.name === 'DrawFrame' && (mainPid === undefined || e.pid === mainPid))
    .map((e) => e.ts)
    .sort((a, b) => a - b);
  const frameIntervals = frames
    .slice(1)
    .map((ts, i) => (ts - frames[i]!) / 1000)
    .sort((a, b) => a - b);

  const sorted = [...deltas].sort((a, b) => a - b);
  return {
    posts,
    loadMs,
    domNodes,
    renderedCards,
    frames: deltas.length,
    median: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    over50: deltas.filter((d) => d > 50).length,
    longTasks: longTasks.length,
    longestTask: Math.max(0, ...tasks.map((task) => (task.dur ?? 0) / 1000)),
    traceFrames: frameIntervals.length,
    traceMedian: percentile(frameIntervals, 0.5),
    traceP95: percentile(frameIntervals, 0.95),
  };
}

const feed = values['skip-feed'] ? undefined : await bigFeed();
if (feed) {
  console.log(
    `feed: ${feed.posts} posts loaded in ${Math.round(feed.loadMs)} ms, ${feed.domNodes} DOM elements; scrolling 3 s: ` +
      `${feed.frames} frames, median ${feed.median.toFixed(1)} ms, p95 ${feed.p95.toFixed(1)} ms, ${feed.over50} over 50 ms; ` +
      `trace: ${feed.longTasks} tasks over 50 ms (longest ${feed.longestTask.toFixed(0)} ms), DrawFrame intervals ` +
      `median ${feed.traceMedian.toFixed(1)} ms, p95 ${feed.traceP95.toFixed(1)} ms`,
  );
}

await browser.close();
await server.stop();

// ---------------------------------------------------------------------------------------------------
// The report

const mark = (ok: boolean) => (ok ? 'met' : '**missed**');
const lines: string[] = [];
lines.push(
  `Run on ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, ` +
    `Chromium ${browserVersion}, ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '### JS and CSS of a first visit',
  '',
  'Every script and stylesheet a cold load fetches (gzip level 9 and brotli quality 11 of the same bytes).',
  '',
  '| page | JS files | JS raw | JS gzip | JS brotli | CSS raw | CSS gzip | CSS brotli | target (JS gzip) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---|',
);
for (const r of assetResults) {
  const target = r.name === '/landing' ? TARGETS.landingJsGzip : r.name === 'feed (/)' ? TARGETS.feedJsGzip : undefined;
  lines.push(
    `| ${r.name} | ${r.js.files} | ${kb(r.js.raw)} | ${kb(r.js.gzip)} | ${kb(r.js.brotli)} | ${kb(r.css.raw)} | ` +
      `${kb(r.css.gzip)} | ${kb(r.css.brotli)} | ${target ? `≤ ${kb(target)}: ${mark(r.js.gzip <= target)}` : '–'} |`,
  );
}
if (switchResults.length > 0) {
  lines.push(
    '',
    '### Switching language',
    '',
    'The scripts a switch of language in Settings loads (signed in, from English), until the page is in that language.',
    '',
    '| to | JS files | JS gzip | target |',
    '|---|---:|---:|---|',
    ...switchResults.map(
      (r) =>
        `| ${r.locale} | ${r.js.files} | ${kb(r.js.gzip)} | ≤ ${kb(TARGETS.languageSwitchJsGzip)}: ` +
        `${mark(r.js.gzip <= TARGETS.languageSwitchJsGzip)} |`,
    ),
  );
}
if (lighthouseResults.length > 0) {
  lines.push(
    '',
    `### Lighthouse (mobile), median of ${LIGHTHOUSE_RUNS} run${LIGHTHOUSE_RUNS === 1 ? '' : 's'}`,
    '',
    `Targets: performance ≥ ${TARGETS.performance}, accessibility ${TARGETS.accessibility}, best practices ≥ ` +
      `${TARGETS.bestPractices}, CLS ≤ ${TARGETS.cls}. Lighthouse's CPU benchmark index of this host (median ` +
      `of the pages' medians): ${Math.round(lighthouseResults.map((r) => r.benchmarkIndex).sort((a, b) => a - b)[Math.floor(lighthouseResults.length / 2)] ?? NaN)}; ` +
      'its simulated mobile CPU is this host slowed 4×, so a slower host reports more blocking time.',
    '',
    '| page | performance | accessibility | best practices | LCP | TBT | CLS | targets |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const r of lighthouseResults) {
    const ok =
      r.performance >= TARGETS.performance &&
      r.accessibility >= TARGETS.accessibility &&
      r.bestPractices >= TARGETS.bestPractices &&
      r.cls <= TARGETS.cls;
    lines.push(
      `| ${r.name} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${(r.lcp / 1000).toFixed(2)} s | ` +
        `${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ${mark(ok)}${ok ? '' : `: ${r.problems.join('; ')}`} |`,
    );
  }
}
if (repeatVisit) {
  lines.push(
    '',
    `### Repeat visit of Home (service worker, issue 44), median of ${LIGHTHOUSE_RUNS} run${LIGHTHOUSE_RUNS === 1 ? '' : 's'}`,
    '',
    'Lighthouse (mobile) on `/` in a profile that visited it once and reloaded it under the service worker: the',
    "scripts, stylesheets and pictures from the worker's caches, Home's HTML drawn by the server (docs/pwa.md).",
    '',
    '| page | LCP (runs) | performance | TBT | CLS | target |',
    '|---|---:|---:|---:|---:|---|',
    `| ${repeatVisit.name} | ${(repeatVisit.lcp / 1000).toFixed(2)} s (${repeatVisit.lcps.join(' / ')} ms) | ` +
      `${repeatVisit.performance} | ${Math.round(repeatVisit.tbt)} ms | ${repeatVisit.cls.toFixed(3)} | ` +
      `LCP ≤ ${(TARGETS.repeatVisitLcp / 1000).toFixed(1)} s: ${mark(repeatVisit.lcp <= TARGETS.repeatVisitLcp)} |`,
  );
}
lines.push(
  '',
  '### Image delivery: a first screenful of the feed',
  '',
  'Pictures fetched by a cold load of the feed (sample data, before scrolling; the lazy ones the browser',
  'fetches early count too), and the variant each post picture chose against the pixels it is drawn at.',
  '',
  '| viewport | image requests | bytes | post pictures: drawn px × DPR → variant px (file) |',
  '|---|---:|---:|---|',
);
for (const r of imageResults) {
  const choices = r.pictures
    .map(
      (p) =>
        `${p.inViewport ? '' : '(below) '}${p.neededWidth} → ${p.naturalWidth} (${p.currentSrc.split('/').pop()?.split('?')[0] ?? ''})`,
    )
    .join('; ');
  lines.push(`| ${r.width} px, DPR ${r.deviceScaleFactor} | ${r.requests} | ${kb(r.bytes)} | ${choices} |`);
}
if (feed) {
  // No task events in the trace (the category set differs between Chromium builds): say so, not "0".
  const tasksSeen = feed.longestTask > 0;
  lines.push(
    '',
    `### The feed with ${feed.posts} posts`,
    '',
    `All pages loaded by scrolling to the end (${(feed.loadMs / 1000).toFixed(1)} s), then 3 s of scrolling at 3,000 px/s.`,
    'Smooth means a median frame near 16.7 ms, p95 under 50 ms, and no main-thread task over 50 ms.',
    '',
    '| DOM elements | frames (rAF) | median frame | p95 frame | frames > 50 ms | trace: tasks > 50 ms | trace: longest task | trace: DrawFrame median / p95 |',
    '|---:|---:|---:|---:|---:|---:|---:|---|',
    `| ${feed.domNodes} | ${feed.frames} | ${feed.median.toFixed(1)} ms | ${feed.p95.toFixed(1)} ms | ${feed.over50} | ` +
      `${tasksSeen ? feed.longTasks : 'n/a'} | ${tasksSeen ? `${feed.longestTask.toFixed(0)} ms` : 'n/a'} | ${feed.traceFrames > 0 ? `${feed.traceMedian.toFixed(1)} / ${feed.traceP95.toFixed(1)} ms` : 'n/a'} |`,
  );
}
const table = lines.join('\n');
console.log(`\n${table}`);

if (values.write) {
  const file = 'docs/performance.md';
  const doc = await readFile(file, 'utf8');
  const start = '<!-- bench:web -->';
  const end = '<!-- /bench:web -->';
  if (!doc.includes(start)) throw new Error(`${file} has no ${start} … ${end} section.`);
  await writeFile(file, `${doc.slice(0, doc.indexOf(start) + start.length)}\n${table}\n${doc.slice(doc.indexOf(end))}`);
  console.log(`Wrote the tables to ${file}.`);
}
