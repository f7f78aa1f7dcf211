import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// The repository's root, read from here: the lockfile is what `npm install` installs.
const root = new URL('../../../', import.meta.url);
const readJson = (file: string) => JSON.parse(readFileSync(new URL(file, root), 'utf8')) as unknown;

interface Lockfile {
  packages: Record<string, { engines?: { node?: string }; cpu?: string[] }>;
}

/**
 * Node 23 and later ship no build for 32-bit x86 (ia32), so a package made only for it (sharp's Windows ia32
 * binary, optional and never installed elsewhere) cannot be installed beside Node 24 whatever it declares.
 */
const noNodeBuild = (cpu: string[] | undefined) => cpu !== undefined && cpu.every((name) => name === 'ia32');

describe('the installed packages', () => {
  it('all support the oldest Node that package.json promises (npm install prints no EBADENGINE)', () => {
    const { engines } = readJson('package.json') as { engines: { node: string } };
    const oldest = semver.minVersion(engines.node);
    expect(oldest).not.toBeNull();
    const { packages } = readJson('package-lock.json') as Lockfile;
    const unsupported = Object.entries(packages)
      .filter(([, entry]) => !noNodeBuild(entry.cpu))
      .filter(([, entry]) => entry.engines?.node && !semver.satisfies(oldest!, entry.engines.node))
      .map(([path, entry]) => `${path} wants Node ${entry.engines!.node}`);
    expect(unsupported).toEqual([]);
  });
});
