#!/usr/bin/env node
// Finds a Chromium for the end-to-end tests, installing one when none is there. It never skips
// silently: it returns a path to an executable or throws with the steps that would give one.
//
// Usage as a script: node scripts/find-browser.mjs   (prints the path)
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// Debian's headless shell first: the tests run headless, and it is the build Playwright itself uses for that
// (the full browser's headless mode took 1.6 times its CPU on the same end-to-end tests).
const SYSTEM_PATHS = [
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

function isExecutable(path) {
  if (!path) return false;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function log(message) {
  process.stderr.write(`[find-browser] ${message}\n`);
}

/** The path of Playwright's own downloaded Chromium, whether or not it has been downloaded. */
async function playwrightChromiumPath() {
  try {
    const require = createRequire(import.meta.url);
    const entry = require.resolve('playwright-core');
    const { chromium } = await import(pathToFileURL(entry).href);
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

async function findInstalled() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv;
    throw new Error(
      `CHROME_PATH is set to "${fromEnv}", which is not an executable file. Unset it or point it at a Chromium binary.`,
    );
  }
  for (const path of SYSTEM_PATHS) {
    if (isExecutable(path)) return path;
  }
  const bundled = await playwrightChromiumPath();
  if (isExecutable(bundled)) return bundled;
  return undefined;
}

function run(command, args) {
  log(`running: ${command} ${args.join(' ')}`);
  // The installer's output goes to stderr: stdout carries only the browser's path, which callers read.
  const result = spawnSync(command, args, { stdio: ['ignore', process.stderr, 'inherit'], timeout: 10 * 60_000 });
  return result.status === 0;
}

function hasCommand(command) {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function findChromium() {
  const found = await findInstalled();
  if (found) return found;

  log('no Chromium found; trying `npx playwright install chromium`');
  if (run('npx', ['--no-install', 'playwright', 'install', 'chromium'])) {
    const bundled = await playwrightChromiumPath();
    if (isExecutable(bundled)) return bundled;
  }

  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && hasCommand('apt-get')) {
    log('trying the distribution packages: apt-get install chromium-headless-shell chromium');
    if (run('apt-get', ['update']) && run('apt-get', ['install', '-y', 'chromium-headless-shell', 'chromium'])) {
      for (const path of SYSTEM_PATHS) {
        if (isExecutable(path)) return path;
      }
    }
  }

  throw new Error(
    [
      'No Chromium browser was found for the end-to-end tests, and installing one failed.',
      'Get one in any of these ways, then run the tests again:',
      '  - Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium-headless-shell',
      "  - Playwright's own build: npx playwright install chromium",
      '  - an existing Chrome or Chromium: export CHROME_PATH=/path/to/chrome',
    ].join('\n'),
  );
}

const invokedDirectly = process.argv[1] && resolve(process.argv[1]) === import.meta.filename;
if (invokedDirectly) {
  try {
    console.log(await findChromium());
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
