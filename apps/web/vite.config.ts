import { createRequire } from 'node:module';
import path from 'node:path';
import { getConfig } from '@lingui/conf';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defaultServerConditions, defineConfig } from 'vite';
import { bootScript } from './vite-plugins/boot-script.ts';
import { chunkGroups } from './vite-plugins/chunk-groups.ts';
import { pureSchemas } from './vite-plugins/pure-schemas.ts';
// The installable app: manifest, service worker, drawn icons (issue 44).
import { pwa } from './vite-plugins/pwa.ts';
import { chunkWords, type MessagesByModule } from './vite-plugins/chunk-words.ts';
import { sourceMessages } from './vite-plugins/source-messages.ts';

const apiTarget = 'http://localhost:3000';
// Found from here whatever the working directory (`vitest --root apps/web` runs from the repo's root).
const LINGUI_CONFIG = path.join(import.meta.dirname, 'lingui.config.ts');
const linguiConfig = getConfig({ configPath: LINGUI_CONFIG });
// Its advice to use the native transform instead of Babel does not apply here (see the plugins below).
process.env.LINGUI_SUPPRESS_BABEL_WARNING ??= '1';

/**
 * React Router's package exports point every bundler at its development build; the production build
 * beside it differs only in `ENABLE_DEV_WARNINGS = false`, which lets the minifier drop the warnings.
 * Both entries come from the same folder, so they share one copy of the router.
 */
const routerDist = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router')), '..', 'production');
const productionRouter = [
  { find: /^react-router$/, replacement: path.join(routerDist, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(routerDist, 'dom-export.mjs') },
];

export default defineConfig(({ command, isSsrBuild }) => {
  const messagesByModule: MessagesByModule = new Map();
  return {
    // The server's render (`--ssr src/entry-server.tsx`, see package.json) has no index.html and no boot script.
    plugins: [
      // The app's words (issue 43): Lingui's macros become message descriptors that keep their English, which
      // sourceMessages compiles; `import('./locales/ja.po')` is a compiled catalogue. The macros go through Babel (only
      // the files that import them): Lingui's faster native transform is an optional package npm skips when it
      // installs on a Node older than 22.19, as `npm install` on a fresh machine does.
      babel({
        presets: [
          linguiTransformerBabelPreset({ descriptorFields: 'message', linguiConfig }, { configPath: LINGUI_CONFIG }),
        ],
      }),
      react(),
      lingui({ configPath: LINGUI_CONFIG, failOnCompileError: true }),
      sourceMessages(messagesByModule),
      // Each chunk's words in each other language, loaded with it (the client build only).
      chunkWords(import.meta.dirname, messagesByModule),
      pureSchemas(),
      ...(isSsrBuild ? [] : [bootScript()]),
      // The manifest, the service worker and the drawn icons (issue 44): the client build only.
      ...(isSsrBuild || command !== 'build' ? [] : pwa(import.meta.dirname)),
    ],
    resolve: {
      // Read the contract package from its TypeScript source, no build step needed.
      conditions: ['source', ...defaultClientConditions],
      alias: command === 'build' ? productionRouter : [],
    },
    // The server's render carries its dependencies (React, the router, TanStack Query): the server imports it
    // from wherever WEB_DIST_DIR is, without a node_modules beside it.
    // It reads the contract from source too (without this it needed the contract's dist, which only typecheck writes).
    ssr: { noExternal: true, resolve: { conditions: ['source', ...defaultServerConditions] } },
    server: {
      proxy: {
        '/api': apiTarget,
        '/media': apiTarget,
      },
    },
    build: {
      target: 'es2022',
      // The server's render needs no copy of public/ (the app's build serves it).
      copyPublicDir: !isSsrBuild,
      // Every browser that runs es2022 knows <link rel="modulepreload">: no polyfill in the entry.
      modulePreload: { polyfill: false },
      rolldownOptions: {
        // TypeBox only builds the contract's schemas (see vite-plugins/pure-schemas.ts); the app uses none of it.
        treeshake: { moduleSideEffects: [{ test: /[\\/]node_modules[\\/]typebox[\\/]/, sideEffects: false }] },
        output: {
          codeSplitting: { groups: chunkGroups(import.meta.dirname) },
          // Seven characters of hash, not eight: the entry lists every route's files (65 names and more), and their
          // hashes do not compress; /landing's budget is tight. Rolldown asks for 7 from 65 chunks on (enough to keep
          // every name apart), and it is ample to tell one build's file from another's.
          ...(isSsrBuild
            ? {}
            : {
                entryFileNames: 'assets/[name]-[hash:7].js',
                chunkFileNames: 'assets/[name]-[hash:7].js',
                assetFileNames: 'assets/[name]-[hash:7][extname]',
              }),
        },
      },
    },
  };
});
