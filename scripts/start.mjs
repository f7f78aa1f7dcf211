// `npm start`: builds what is not built yet, then runs the production server (app, API, media): one process,
// or WORKERS processes sharing the port (apps/server/src/workers.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const outputs = ['packages/contract/dist/index.js', 'apps/server/dist/main.js', 'apps/web/dist/index.html'];
if (outputs.some((file) => !existsSync(file))) {
  console.log('Building Share Arts (first start)…');
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The Node 24 that `npm install` put in node_modules (package.json's dependency `node`), whatever Node runs
// this script; npm scripts find it first on their PATH anyway.
const projectNode = path.resolve('node_modules/.bin/node');
const nodeBinary = existsSync(projectNode) ? projectNode : process.execPath;
const version = spawnSync(nodeBinary, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(`Starting Share Arts on Node ${version} (${nodeBinary})`);

const server = spawn(nodeBinary, ['apps/server/dist/main.js'], {
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
// Ctrl-C reaches the server too (same process group); pass on a TERM sent to this process alone.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => server.kill('SIGTERM'));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
