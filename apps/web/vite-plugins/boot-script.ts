import { hash } from 'node:crypto';
import path from 'node:path';
import { build, defaultClientConditions, normalizePath, type Plugin, type Rolldown } from 'vite';
import { ROUTE_MODULES } from '../src/boot/route-modules.ts';
import { WORDS_FILE_PREFIX } from '../src/lib/words-protocol.ts';

/**
 * The stylesheets of the pages the server draws (issue 22), by route, written beside index.html: the server
 * links them in such a page's head, so its markup is drawn styled before any script has run.
 */
export const SHARED_PAGE_STYLES = 'shared-page-styles.json';
// The pages the server draws (a shared page's, and a signed-in viewer's Home: 'feed').
const SHARED_ROUTES = ['post', 'profile', 'tag', 'series', 'collection', 'feed'] as const;

/** The call chunk-words.ts starts a chunk with, as the minifier leaves it. */
const WORDS_CALL = /__words\?\.\(["'`]([\w-]+)["'`]\)/;

/** Where index.html wants the head script (a comment there). */
const MARKER = '<!-- head script -->';
/** The identifiers in src/boot that the build replaces with what it knows. */
const HEAD_PLACEHOLDER = '__BOOT_HEAD__';
const BOOT_PLACEHOLDER = '__BOOT_ASSETS__';
const DEV_URL = { head: '/@share-arts/head.js', boot: '/@share-arts/boot.js' };

interface BootAssets {
  files: string[];
  routes: Record<string, number[]>;
}

type Script = 'head' | 'boot';

/** src/boot/<script>.ts as one minified classic script (an IIFE), with its placeholder still to fill in. */
async function compile(root: string, script: Script): Promise<string> {
  const placeholder = script === 'head' ? HEAD_PLACEHOLDER : BOOT_PLACEHOLDER;
  const result = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    publicDir: false,
    resolve: { conditions: ['source', ...defaultClientConditions] },
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      emptyOutDir: false,
      lib: { entry: path.join(root, `src/boot/${script}.ts`), formats: ['iife'], name: script, fileName: script },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunk = outputs.flatMap((output) => output.output).find((file) => file.type === 'chunk');
  if (!chunk || !chunk.code.includes(placeholder)) {
    throw new Error(`src/boot/${script}.ts did not build, or lost its ${placeholder} placeholder.`);
  }
  return chunk.code;
}

/** The code with its placeholder replaced by `value`. */
function fill(code: string, script: Script, value: unknown): string {
  return code.replace(script === 'head' ? HEAD_PLACEHOLDER : BOOT_PLACEHOLDER, JSON.stringify(value));
}

/**
 * For each route of src/boot/route-modules.ts, the files its modules end up in, what those import (but
 * not what the entry loads anyway) and their CSS: what the router would ask for once the entry has run.
 * /landing's list goes to the head script; the others, as indexes into one list of files, to boot.js.
 */
function routeAssets(bundle: Rolldown.OutputBundle, root: string, base: string): BootAssets & { landing: string[] } {
  const chunks = Object.values(bundle).filter((file): file is Rolldown.OutputChunk => file.type === 'chunk');
  const byFileName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (start: Rolldown.OutputChunk[]) => {
    const seen = new Set<Rolldown.OutputChunk>();
    const visit = (chunk: Rolldown.OutputChunk) => {
      if (seen.has(chunk)) return;
      seen.add(chunk);
      for (const name of chunk.imports) {
        const imported = byFileName.get(name);
        if (imported) visit(imported);
      }
    };
    start.forEach(visit);
    return seen;
  };
  const loadedByEntry = closure(chunks.filter((chunk) => chunk.isEntry));
  // A chunk's words (vite-plugins/chunk-words.ts), as `words-<key>`: the page's scripts add `.<language>.js` in a
  // language other than English, and skip them in English. Every page needs the entry's, and its route's.
  const wordsOf = (chunk: Rolldown.OutputChunk) => {
    const key = WORDS_CALL.exec(chunk.code)?.[1];
    return key ? [`assets/${WORDS_FILE_PREFIX}${key}`] : [];
  };
  const entryWords = [...loadedByEntry].flatMap(wordsOf);
  const filesOf = (route: string, modules: readonly string[]) => {
    const owners = modules.map((module) => {
      const id = normalizePath(path.join(root, module));
      const owner = chunks.find((chunk) => chunk.moduleIds.includes(id));
      if (!owner) throw new Error(`Boot script: ${module} (route ${route}) is in no chunk.`);
      return owner;
    });
    const needed = [...closure(owners)].filter((chunk) => !loadedByEntry.has(chunk));
    const css = needed.flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]);
    return [...needed.map((chunk) => chunk.fileName), ...new Set(css), ...entryWords, ...needed.flatMap(wordsOf)].map(
      (fileName) => `${base}${fileName}`,
    );
  };

  const files: string[] = [];
  const routes: Record<string, number[]> = {};
  for (const [route, modules] of Object.entries(ROUTE_MODULES)) {
    if (route === 'landing') continue;
    routes[route] = filesOf(route, modules).map((url) => {
      const known = files.indexOf(url);
      return known >= 0 ? known : files.push(url) - 1;
    });
  }
  return { files, routes, landing: filesOf('landing', ROUTE_MODULES.landing) };
}

/**
 * Builds src/boot/head.ts and src/boot/boot.ts into classic scripts: head.js is written inline where
 * index.html has `<!-- head script -->`, with /landing's files and boot.js's address in it; boot.js
 * (assets/boot-<hash>.js) gets the files each other route's first render needs. In development both are
 * served under /@share-arts/ with empty lists (the modules are not bundled then).
 */
export function bootScript(): Plugin {
  let root = '';
  let base = '/';
  let compiled: Promise<[string, string]> | undefined;
  return {
    name: 'share-arts:boot-script',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    buildStart() {
      compiled = Promise.all([compile(root, 'head'), compile(root, 'boot')]);
    },
    configureServer(server) {
      for (const script of ['head', 'boot'] as const) {
        server.middlewares.use(DEV_URL[script], (_request, response, next) => {
          compile(root, script).then((code) => {
            const value =
              script === 'head'
                ? { landing: [], boot: DEV_URL.boot, assets: '/assets/' }
                : { dir: '', files: [], routes: {} };
            response.setHeader('content-type', 'text/javascript');
            response.end(fill(code, script, value));
          }, next);
        });
      }
    },
    transformIndexHtml(html, context) {
      if (context.server) return html.replace(MARKER, `<script src="${DEV_URL.head}"></script>`);
    },
    async generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!compiled || html?.type !== 'asset' || typeof html.source !== 'string' || !html.source.includes(MARKER)) {
        throw new Error(`Boot script: no index.html with ${MARKER} in the bundle.`);
      }
      const [headCode, bootCode] = await compiled;
      const assets = routeAssets(bundle, root, base);
      // boot.js names its files without their common folder (65 times "/assets/": 38 bytes gzipped, on every
      // page but /landing).
      const dir = `${base}assets/`;
      const names = assets.files.map((file) => {
        if (!file.startsWith(dir)) throw new Error(`Boot script: ${file} is not under ${dir}.`);
        return file.slice(dir.length);
      });
      const bootSource = fill(bootCode, 'boot', { dir, files: names, routes: assets.routes });
      const bootFile = `assets/boot-${hash('sha256', bootSource, 'base64url').slice(0, 8)}.js`;
      this.emitFile({ type: 'asset', fileName: bootFile, source: bootSource });
      const head = fill(headCode, 'head', { landing: assets.landing, boot: `${base}${bootFile}`, assets: dir });
      const styles = Object.fromEntries(
        SHARED_ROUTES.map((route) => [
          route,
          (assets.routes[route] ?? []).map((index) => assets.files[index]!).filter((file) => file.endsWith('.css')),
        ]),
      );
      this.emitFile({ type: 'asset', fileName: SHARED_PAGE_STYLES, source: JSON.stringify(styles) });
      // Inline: a file of its own would hold back the first paint by a round trip (the server lets this very
      // script run by its hash in the CSP: inlineScriptSources in apps/server/src/plugins/security.ts).
      if (/<\/script/i.test(head)) throw new Error('Boot script: head.js contains "</script".');
      html.source = html.source.replace(MARKER, () => `<script>${head}</script>`);
    },
  };
}
