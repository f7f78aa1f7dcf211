// `npm test`: the whole suite. Lint and types first, then the API tests (PGlite, or PostgreSQL when
// DATABASE_URL is set) and the web app's unit tests, then the production build and the end-to-end tests in Chromium.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findChromium } from './find-browser.mjs';

const reports = mkdtempSync(path.join(os.tmpdir(), 'share-arts-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
// The names of the tests that failed, printed again last: CI shows only the end of a long log.
const failures = [];
// End-to-end tests that failed once and passed on their retry: named at the end, to be fixed at their cause.
const flaky = [];

// Each step's seconds, printed at the end: CI's table shows npm test as one step.
const timings = [];

/**
 * The machine's CPU time so far, busy and in all, from /proc/stat (Linux; undefined elsewhere): a step's share
 * of every core kept busy (by anything running, the passes beside it included) says whether it waited or
 * computed, so whether running it beside another would save time.
 */
function cpuTicks() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    // idle and iowait
    return { busy: total - fields[3] - fields[4], total };
  } catch {
    return undefined;
  }
}
const busyShare = (from, to) =>
  from && to && to.total > from.total
    ? `${Math.round((100 * (to.busy - from.busy)) / (to.total - from.total))} %`
    : '–';

function run(title, command, args, env = {}) {
  console.log(`\n▶ ${title}: ${command} ${args.join(' ')}`);
  const started = performance.now();
  const ticks = cpuTicks();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push({
    title,
    seconds: (performance.now() - started) / 1000,
    busy: busyShare(ticks, cpuTicks()),
    ok: result.status === 0,
  });
  return result.status === 0;
}

function printTimings() {
  console.log(
    `\nnpm test on Node ${process.versions.node}, steps (seconds, and the share of the CPUs busy meanwhile):`,
  );
  for (const { title, seconds, busy, ok } of timings)
    console.log(`${seconds.toFixed(0).padStart(6)} ${busy.padStart(5)}  ${title}${ok ? '' : ' (failed)'}`);
}

function step(title, command, args, env) {
  if (!run(title, command, args, env)) {
    printTimings();
    console.error(`\n✖ ${title} failed.`);
    process.exit(1);
  }
}

/**
 * Runs steps side by side (the host has two cores, and each of these uses one), each one's output printed
 * whole when it ends; stops the suite if one failed.
 */
async function stepsTogether(steps) {
  const results = await Promise.all(
    steps.map(
      ({ title, command, args }) =>
        new Promise((resolve) => {
          const started = performance.now();
          const ticks = cpuTicks();
          const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.on('close', (code) => {
            console.log(`\n▶ ${title}: ${command} ${args.join(' ')}`);
            process.stdout.write(Buffer.concat(output));
            const ok = code === 0;
            timings.push({
              title: `${title} (beside the others)`,
              seconds: (performance.now() - started) / 1000,
              busy: busyShare(ticks, cpuTicks()),
              ok,
            });
            resolve({ title, ok });
          });
        }),
    ),
  );
  const failed = results.filter((result) => !result.ok);
  if (failed.length > 0) {
    printTimings();
    console.error(`\n✖ ${failed.map((result) => result.title).join(' and ')} failed.`);
    process.exit(1);
  }
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  for (const suite of report.testResults) {
    const name = path.relative(process.cwd(), suite.name);
    const failed = suite.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failed) {
      const why = (test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
      failures.push(`${name} › ${test.fullName}${why ? `\n      ${why}` : ''}`);
    }
    if (suite.status === 'failed' && failed.length === 0)
      failures.push(`${name}: ${(suite.message || 'the file failed').split('\n')[0].slice(0, 300)}`);
  }
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const { stats, suites } = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      const name = `${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`;
      if (spec.tests.some((test) => test.status === 'unexpected')) failures.push(name);
      if (spec.tests.some((test) => test.status === 'flaky')) flaky.push(name);
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of suites ?? []) visit(suite, []);
}

// Two lanes of about equal CPU time. Alone on this 2-core host: eslint 27 s, prettier 13, the dependency rules 3, the
// types of bench 16 and of reliability 2.5 (61 s); `tsc -b` 33 and the server's tests 34 (67 s). Lint beside the
// four type checks had left a core idle for the last minute.
await stepsTogether([
  {
    title: 'Lint, the catalogues (every message in every language), then the types of bench and reliability',
    command: 'sh',
    args: ['-c', 'npm run lint --silent && npm run i18n:check --silent && npm run typecheck:tools --silent'],
  },
  { title: 'Types of the apps and their tests', command: 'npm', args: ['run', 'typecheck:app', '--silent'] },
]);

const apiReport = path.join(reports, 'api.json');
let ok = run(`API tests (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, 'npx', [
  'vitest',
  'run',
  '--root',
  'apps/server',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${apiReport}`,
]);
countVitest(apiReport);

const webReport = path.join(reports, 'web.json');
ok =
  run('Web unit tests', 'npx', [
    'vitest',
    'run',
    '--root',
    'apps/web',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${webReport}`,
  ]) && ok;
countVitest(webReport);

step('Build', 'npm', ['run', 'build', '--silent']);

const chromium = await findChromium();
const e2eReport = path.join(reports, 'e2e.json');
ok =
  run(
    'End-to-end tests (Chromium)',
    'npx',
    ['playwright', 'test', '--config', 'e2e/playwright.config.ts', '--reporter=list,json'],
    {
      CHROME_PATH: chromium,
      PLAYWRIGHT_JSON_OUTPUT_FILE: e2eReport,
    },
  ) && ok;
countPlaywright(e2eReport);

printTimings();
if (flaky.length > 0)
  console.log(`\nFlaky (failed, then passed on the retry):\n${flaky.map((name) => `  ! ${name}`).join('\n')}`);
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((name) => `  ✖ ${name}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
