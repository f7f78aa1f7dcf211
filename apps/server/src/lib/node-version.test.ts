import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem, OLDEST_NODE } from './node-version.js';

describe('the Node version the server needs', () => {
  it('refuses Node 20 and 22 with a sentence that says how to start it', () => {
    for (const version of ['20.20.2', '22.21.1', '24.10.0']) {
      const problem = nodeVersionProblem(version);
      expect(problem).toContain(`this is Node ${version}`);
      expect(problem).toContain('npm start');
    }
  });

  it('runs on 24.11 and later', () => {
    for (const version of ['24.11.0', '24.21.0', '26.1.0']) expect(nodeVersionProblem(version)).toBeUndefined();
  });

  it("is package.json's engines, and the Node the tests run on", () => {
    const { engines } = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
    };
    expect(semver.minVersion(engines.node)?.version).toBe(`${OLDEST_NODE.major}.${OLDEST_NODE.minor}.0`);
    expect(nodeVersionProblem(process.versions.node)).toBeUndefined();
  });

  it('stops the built server on an older Node before loading anything else', () => {
    // The check runs first in main.ts; here it runs under a Node made to report an old version.
    const result = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "Object.defineProperty(process.versions, 'node', { value: '20.20.2' }); await import(process.argv[1]);",
        new URL('../main.ts', import.meta.url).pathname,
      ],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '--import tsx' } },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'Share Arts could not start: it needs Node 24.11 or later, and this is Node 20.20.2',
    );
  });
});
