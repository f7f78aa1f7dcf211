// `npm test`: the whole suite. Lint and types first, then the API tests (PGlite, or PostgreSQL when
// DATABASE_URL is set) and the web app's unit tests, then the production build and the end-to-end tests in Chromium.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findChromium } from './find-browser.mjs';

const reports = mkdtempSync(path.join(os.tmpdir(), 'share-arts-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
// The names of the tests that failed, printed again last: CI shows only the end of a long log.
const failures = [];

function run(title, command, args, env = {}) {
  console.log(`\n▶ ${title}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

function step(title, command, args, env) {
  if (!run(title, command, args, env)) {
    console.error(`\n✖ ${title} failed.`);
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
      const failed = spec.tests.some((test) => test.status === 'unexpected');
      if (failed) failures.push(`${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`);
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of suites ?? []) visit(suite, []);
}

step('Lint', 'npm', ['run', 'lint', '--silent']);
step('Types', 'npm', ['run', 'typecheck', '--silent']);

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

if (failures.length > 0) console.log(`\nFailed:\n${failures.map((name) => `  ✖ ${name}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
