/**
 * Supply chain: `npm audit --audit-level=high --omit=dev` (the gate: what ships) and the full
 * `npm audit` (development tools too), recorded in docs/reliability.md. Fails on a high or critical
 * finding in a production dependency. When the registry does not answer the audit endpoint (some
 * mirrors and proxies refuse it), that is recorded plainly with npm's own error text and the check
 * does not fail: nothing could be checked, and the section says so.
 *
 * Run: npx tsx --conditions=source reliability/audit.ts
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeReliabilitySection } from '../scripts/reliability-report.mjs';
import { CheckFailed, ROOT, runCheck } from './lib.js';

const SEVERITIES = ['critical', 'high', 'moderate', 'low', 'info'] as const;
type Severity = (typeof SEVERITIES)[number];

interface Vulnerability {
  name: string;
  severity: Severity;
  range: string;
  via: (string | { title?: string; url?: string })[];
  fixAvailable: boolean | { name: string; version: string };
}

interface Audit {
  command: string;
  exitCode: number | null;
  /** Set when the audit could not be run (the endpoint refused or could not be reached). */
  unreachable?: string;
  counts?: Record<Severity, number>;
  vulnerabilities: Vulnerability[];
}

function npm(args: string[]) {
  const result = spawnSync('npm', args, { cwd: ROOT, encoding: 'utf8', timeout: 180_000 });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** npm's error lines, without its warnings about the local configuration. */
const errorLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => /^npm (error|warn audit)/.test(line) && !/A complete log of this run/.test(line))
    .join('\n');

function audit(extra: string[]): Audit {
  const command = `npm audit ${extra.join(' ')}`.trim();
  const { status, stdout, stderr } = npm(['audit', '--json', ...extra]);
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  const metadata = json?.metadata as { vulnerabilities?: Record<Severity, number> } | undefined;
  if (!metadata?.vulnerabilities) {
    const error = json?.error as { summary?: string; detail?: string; code?: string } | undefined;
    const message =
      (typeof json?.message === 'string' && json.message) ||
      [error?.code, error?.summary, error?.detail].filter(Boolean).join(': ') ||
      errorLines(stderr) ||
      stderr.trim() ||
      `npm exited with ${status} and no report`;
    const statusCode = typeof json?.statusCode === 'number' ? ` (HTTP ${json.statusCode})` : '';
    return { command, exitCode: status, unreachable: `${message}${statusCode}`, vulnerabilities: [] };
  }
  const vulnerabilities = Object.values((json!.vulnerabilities ?? {}) as Record<string, Vulnerability>);
  return { command, exitCode: status, counts: metadata.vulnerabilities, vulnerabilities };
}

/** How many packages the lock file installs, in all and for production only. */
function lockedPackages() {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; link?: boolean }>;
  };
  const installed = Object.entries(lock.packages).filter(([key, p]) => key.includes('node_modules/') && !p.link);
  return { all: installed.length, production: installed.filter(([, p]) => !p.dev).length };
}

function describe(a: Audit): string[] {
  if (a.unreachable) {
    return [
      `\`${a.command}\`: **not run: the registry refused the audit.** npm exited with ${a.exitCode} and said:`,
      '',
      '```',
      a.unreachable,
      '```',
    ];
  }
  const counts = SEVERITIES.map((s) => `${s} ${a.counts![s] ?? 0}`).join(', ');
  const lines = [`\`${a.command}\`: exit code ${a.exitCode}; ${counts}.`];
  if (a.vulnerabilities.length) {
    lines.push('', '| package | severity | range | advisories | fix |', '|---|---|---|---|---|');
    const order = (v: Vulnerability) => SEVERITIES.indexOf(v.severity);
    for (const v of [...a.vulnerabilities].sort((x, y) => order(x) - order(y) || x.name.localeCompare(y.name))) {
      const via = v.via
        .map((item) =>
          typeof item === 'string' ? `via ${item}` : item.url ? `[${item.title}](${item.url})` : item.title,
        )
        .join('; ');
      const fix =
        v.fixAvailable === true
          ? 'npm audit fix'
          : v.fixAvailable
            ? `${v.fixAvailable.name}@${v.fixAvailable.version} (breaking)`
            : 'none yet';
      lines.push(`| ${v.name} | ${v.severity} | ${v.range} | ${via} | ${fix} |`);
    }
  }
  return lines;
}

async function main() {
  const packages = lockedPackages();
  // The gate, exactly as a person would run it (its exit code), then both audits as JSON for the figures.
  const gate = npm(['audit', '--audit-level=high', '--omit=dev']);
  const production = audit(['--omit=dev']);
  const full = audit([]);
  for (const a of [production, full]) {
    console.log(
      a.unreachable ? `${a.command}: not run — ${a.unreachable}` : `${a.command}: ${JSON.stringify(a.counts)}`,
    );
  }
  console.log(`npm audit --audit-level=high --omit=dev: exit code ${gate.status}.`);

  const blocking = production.vulnerabilities.filter((v) => v.severity === 'high' || v.severity === 'critical');
  const unreachable = production.unreachable !== undefined;
  const verdict = unreachable
    ? '**Not checked**: the registry refused the audit endpoint, so no advisory could be fetched and nothing is known about vulnerabilities. The step does not fail on this; run `npm audit --omit=dev` where the endpoint answers.'
    : blocking.length
      ? `**Failed**: ${blocking.length} high or critical finding(s) in production dependencies.`
      : '**Passed**: no high or critical finding in production dependencies.';
  const markdown = [
    `Production dependencies: ${packages.production} packages in package-lock.json; with the development tools: ${packages.all}. The gate is \`npm audit --audit-level=high --omit=dev\`: high or critical findings in production dependencies fail the step; findings in development tools only are listed.`,
    '',
    verdict,
    '',
    `\`npm audit --audit-level=high --omit=dev\`: exit code ${gate.status}${errorLines(gate.stderr) ? '; npm said:' : '.'}`,
    ...(errorLines(gate.stderr) ? ['', '```', errorLines(gate.stderr), '```'] : []),
    '',
    ...describe(production),
    '',
    ...describe(full),
  ].join('\n');
  await writeReliabilitySection('audit', markdown);
  if (blocking.length) {
    throw new CheckFailed(
      `High or critical advisories in production dependencies: ${blocking.map((v) => `${v.name} (${v.severity})`).join(', ')}.`,
    );
  }
  if (unreachable) console.warn(`The audit endpoint could not be used: ${production.unreachable}`);
}

await runCheck('Audit', main);
