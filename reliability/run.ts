/**
 * `npm run test:reliability`: the load check, the slow-connection attack, the crash check and the audit, one after the other
 * (each in its own process), against the production build (`npm run build` first). Each writes its
 * section of docs/reliability.md; this fails when any of them fails, after running them all.
 * With DATABASE_URL set, the load runs on that PostgreSQL server (in a database made for the run).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, seconds } from './lib.js';

const CHECKS = [
  ['Load', 'load.ts'],
  ['Slow clients', 'slow-clients.ts'],
  ['Crash safety', 'crash.ts'],
  ['Workers', 'workers.ts'],
  ['Three machines', 'cluster.ts'],
  ['Audit', 'audit.ts'],
] as const;

const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const results: { name: string; ok: boolean; ms: number }[] = [];
for (const [name, file] of CHECKS) {
  console.log(`\n▶ ${name} (reliability/${file})`);
  const started = performance.now();
  const result = spawnSync(tsx, ['--conditions=source', path.join(ROOT, 'reliability', file)], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  results.push({ name, ok: result.status === 0, ms: performance.now() - started });
}

console.log('\nReliability:');
for (const { name, ok, ms } of results) console.log(`  ${ok ? '✔' : '✖'} ${name.padEnd(14)} ${seconds(ms)}`);
const failed = results.filter((r) => !r.ok);
if (failed.length) {
  console.error(
    `\n✖ ${failed.map((r) => r.name).join(', ')} failed; see above. The figures are in docs/reliability.md.`,
  );
  process.exit(1);
}
console.log('\nAll passed; the figures are in docs/reliability.md.');
