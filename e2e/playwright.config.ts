// End-to-end tests: the built production server on a fresh, throw-away data folder and a free port,
// driven by a real Chromium. Run `npm run build` at the repository root first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { startSmtpSink } from './support/smtp-sink.ts';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(e2eDir, '..');
const serverEntry = path.join(repoRoot, 'apps/server/dist/main.js');

// The config is evaluated again in every worker process. The values chosen once by the main process
// travel to the workers through the environment, so all of them talk to the same server.
const isMainProcess = process.env.TEST_WORKER_INDEX === undefined;

if (isMainProcess && !existsSync(serverEntry)) {
  throw new Error(
    `${serverEntry} is missing: run \`npm run build\` at the repository root before the end-to-end tests.`,
  );
}

function freePort(): number {
  const script =
    "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

function chromiumPath(): string {
  // find-browser prints the path, or explains on stderr how to get a browser and exits non-zero.
  return execFileSync(process.execPath, [path.join(repoRoot, 'scripts/find-browser.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

process.env.E2E_PORT ??= String(freePort());
process.env.E2E_CHROMIUM ??= chromiumPath();
if (isMainProcess && process.env.E2E_DATA_DIR === undefined) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'share-arts-e2e-'));
  process.env.E2E_DATA_DIR = dataDir;
  // By the time the runner exits it has stopped the server, so the folder can go.
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}

// Mail (issue 24): a real SMTP server in the runner's process; the specs read what it received.
if (isMainProcess && process.env.E2E_SMTP_PORT === undefined) {
  process.env.E2E_SMTP_PORT = String(freePort());
  process.env.E2E_MAIL_DIR = path.join(process.env.E2E_DATA_DIR ?? tmpdir(), 'mails');
  startSmtpSink(Number(process.env.E2E_SMTP_PORT), process.env.E2E_MAIL_DIR);
}

const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: process.env.E2E_CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  },
};

/**
 * The specs run in Arabic and in Japanese too (`npm run test:languages`): the first run, posting a work with
 * pictures, the viewer, comments, profiles and the Settings profile form (people), and the moderation queue.
 */
const IN_EVERY_LANGUAGE = [
  'first-run.spec.ts',
  'composer-pictures.spec.ts',
  'viewer.spec.ts',
  'comments.spec.ts',
  'people.spec.ts',
  'moderation.spec.ts',
];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(e2eDir, 'test-results'),
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['./support/summary-reporter.ts']],
  use: {
    baseURL,
    // A trace records a screencast and DOM snapshots of every action: recorded on every attempt it took half of
    // the browser's CPU. The retry of a failed test records one (CI retries once, and names the test flaky).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'chromium', use: chromium },
    // The representative third of the suite in the two languages furthest from English (issue 43): Arabic, right
    // to left, and Japanese. The browser's locale is what the app and the server read; the specs say what they
    // look for through support/say.ts, which answers it in that language.
    { name: 'arabic', testMatch: IN_EVERY_LANGUAGE, use: { ...chromium, locale: 'ar' } },
    { name: 'japanese', testMatch: IN_EVERY_LANGUAGE, use: { ...chromium, locale: 'ja-JP' } },
  ],
  webServer: {
    command: 'node apps/server/dist/main.js',
    cwd: repoRoot,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      // Empty means "use the default": the embedded database, media and a generated secret, all
      // under the fresh DATA_DIR, whatever the calling shell has set.
      DATABASE_URL: '',
      MEDIA_DIR: '',
      JWT_SECRET: '',
      // Every spec signs up its own users from 127.0.0.1; the limits have their own API tests.
      RATE_LIMITS: 'off',
      SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
      // The account e2e/moderation.spec.ts signs up to read the audit log as an admin.
      ADMIN_USERNAME: 'e2e_admin',
      // e2e/push.spec.ts: its push service runs on 127.0.0.1 (http), and a push waits a second for its group.
      PUSH_ALLOW_PRIVATE_ADDRESS: '1',
      PUSH_GROUP_SECONDS: '1',
    },
  },
});
