import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ssrEntryOf } from '../modules/pages/index.js';

const WEB_ROOT = path.resolve(import.meta.dirname, '../../../web');
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <script>document.documentElement.dataset.theme = 'light';</script>
    <title>Share Arts</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-abc.js">
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

/** The text the test app's stylesheet at `href` has unless told otherwise: a rule naming its file. */
export const stylesheetText = (href: string) => `.${path.basename(href, '.css')}{color:red}`;

/**
 * A web app's folder for the pages tests, with the server render of issue 22: a small index.html shaped as the
 * build writes it (an inline head script, the entry's script, a file it imports and its stylesheet), the drawn pages' stylesheets as
 * the web build lists them beside it (`styles`, by page) with their files (`stylesheetText`, or the text
 * `texts` gives), and apps/web's src/entry-server.tsx built beside it where the server looks for it, as `npm
 * run build` does (a second or two). Answers the folder to give as `webDistDir`, and its removal.
 */
export async function buildDrawnWebApp(
  styles: Record<string, string[]>,
  texts: Record<string, string> = {},
): Promise<{ webDistDir: string; remove: () => Promise<void> }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'share-arts-drawn-'));
  const webDistDir = path.join(folder, 'dist');
  await mkdir(path.join(webDistDir, 'assets'), { recursive: true });
  await writeFile(path.join(webDistDir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(webDistDir, 'shared-page-styles.json'), JSON.stringify(styles));
  for (const href of new Set(['/assets/index-abc.css', ...Object.values(styles).flat()])) {
    await writeFile(path.join(webDistDir, href), texts[href] ?? stylesheetText(href));
  }
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
