import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ssrEntryOf } from '../modules/pages/index.js';

const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web');
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <script src="/assets/head-abc.js"></script>
    <title>Share Arts</title>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

/**
 * A web app's folder for the pages tests, with the server render of issue 22: a small index.html, the drawn
 * pages' stylesheets as the web build lists them beside it (`styles`, by page), and apps/web's
 * src/entry-server.tsx built beside it where the server looks for it, as `npm run build` does (a second or
 * two). Answers the folder to give as `webDistDir`, and its removal.
 */
export async function buildDrawnWebApp(
  styles: Record<string, string[]>,
): Promise<{ webDistDir: string; remove: () => Promise<void> }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'share-arts-drawn-'));
  const webDistDir = path.join(folder, 'dist');
  await mkdir(webDistDir);
  await writeFile(path.join(webDistDir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(webDistDir, 'shared-page-styles.json'), JSON.stringify(styles));
  const build = spawnSync(
    'npx',
    [
      'vite',
      'build',
      '--ssr',
      'src/entry-server.tsx',
      '--outDir',
      path.dirname(ssrEntryOf(webDistDir)),
      '--logLevel',
      'warn',
    ],
    { cwd: WEB_ROOT, encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`The server render did not build: ${build.stderr}`);
  return { webDistDir, remove: () => rm(folder, { recursive: true, force: true }) };
}
