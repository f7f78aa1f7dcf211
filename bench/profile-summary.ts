/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [--last-ms N] [--requests N] [--top 40]`: where a CPU
 * profile (`node --cpu-prof`) spent its time; with `--last-ms`, in its last N ms only (the load, without
 * the server's start: a profile is written when the process exits). Prints the self time by package or app file, then by function, and
 * the total time (self and callees) of the functions that take most; with `--requests`, in µs a request
 * too (the requests answered while the profile ran: autocannon's count), else in ms and % of the profile.
 * Idle time (the event loop waiting) is left out of the percentages.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'last-ms': { type: 'string' },
    requests: { type: 'string' },
    top: { type: 'string', default: '40' },
  },
});
const file = positionals[0];
if (!file) throw new Error('Pass a .cpuprofile file (node --cpu-prof writes one when the process exits).');
const requests = values.requests === undefined ? undefined : Number(values.requests);
if (requests !== undefined && !(requests > 0)) throw new Error('--requests must be a positive number.');
const TOP = Number(values.top);

const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

/** A package's name (`fastify`, `@fastify/compress`), `node:<module>` for Node's own, or the app's file. */
function owner(url: string): string {
  if (url === '') return '(native or V8)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [scope, name] = url.slice(modules + 'node_modules/'.length).split('/');
    return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
  }
  if (url.startsWith('node:')) return url;
  const app = url.indexOf('/dist/');
  return app >= 0 ? `app: ${url.slice(app + '/dist/'.length)}` : url.replace(/^file:\/\//, '');
}
const functionKey = ({ callFrame }: ProfileNode) =>
  `${callFrame.functionName || '(anonymous)'} ${owner(callFrame.url)}:${callFrame.lineNumber + 1}`;

const selfByOwner = new Map<string, number>();
const selfByFunction = new Map<string, number>();
const totalByFunction = new Map<string, number>();
const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
// Each sample's time is the delta before the next one; its moment, the sum of the deltas up to it.
const at: number[] = [];
let clock = 0;
for (const delta of profile.timeDeltas) at.push((clock += delta));
const from = values['last-ms'] === undefined ? -Infinity : clock - Number(values['last-ms']) * 1000;
let busy = 0;
let idle = 0;
for (const [i, id] of profile.samples.entries()) {
  if (at[i]! < from) continue;
  const us = profile.timeDeltas[i + 1] ?? 0;
  const node = byId.get(id)!;
  if (node.callFrame.functionName === '(idle)') {
    idle += us;
    continue;
  }
  busy += us;
  add(selfByOwner, owner(node.callFrame.url), us);
  add(selfByFunction, functionKey(node), us);
  // Each function once per sample, however deep it recurses.
  const seen = new Set<string>();
  for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
    const key = functionKey(byId.get(node)!);
    if (seen.has(key)) continue;
    seen.add(key);
    add(totalByFunction, key, us);
  }
}

const figure = (us: number) =>
  `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / busy).toFixed(1).padStart(5)} %` +
  (requests ? ` ${(us / requests).toFixed(1).padStart(7)} µs a request` : '');
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${figure(us)}  ${key}`);
};
console.log(`busy ${figure(busy)}; idle ${(idle / 1000).toFixed(0)} ms`);
print('Self time by package or app file', selfByOwner);
print('Self time by function', selfByFunction);
print('Total time (self and callees) by function', totalByFunction);
