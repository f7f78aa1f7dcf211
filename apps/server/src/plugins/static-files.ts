import { existsSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ERRORS } from '@share-arts/contract';
import { ASSETS_DIR } from '../lib/assets.js';

const YEAR_SECONDS = 31_536_000;
const NO_SUCH_FILE = 'No such media file.';

/**
 * The server writes every upload as a regular file directly in the media folder, so only those are
 * served: a symlink (to a file outside the folder, or a folder of them) placed there is never
 * followed, and nothing is served from a sub-folder. The static server alone would follow both.
 */
async function isMediaFile(mediaDir: string, name: string | undefined): Promise<boolean> {
  if (!name || name.includes('/') || name.includes('\\') || name.startsWith('.')) return false;
  try {
    return (await lstat(path.join(mediaDir, name))).isFile();
  } catch {
    return false;
  }
}

export interface StaticFilesOptions {
  mediaDir: string;
  webDistDir: string;
  /**
   * The Content-Disposition of a media file, when it has one (an original, named as it was uploaded):
   * `download` when the URL asks for `?download`. Handed in by app.ts from the media module.
   */
  dispositionOf?: (file: string, download: boolean) => Promise<string | undefined>;
}

/**
 * Uploaded media (immutable: every file has a new name), the shipped default pictures, and the built
 * web app with a history fallback so deep links such as /settings load the app.
 */
export async function registerStaticFiles(app: FastifyInstance, options: StaticFilesOptions): Promise<void> {
  await app.register(async (uploads) => {
    uploads.addHook('onRequest', async (request, reply) => {
      const name = (request.params as { '*'?: string })['*'];
      if (!(await isMediaFile(options.mediaDir, name))) {
        return reply.code(404).send({ errors: [NO_SUCH_FILE] });
      }
      const download = (request.query as Record<string, unknown>).download !== undefined;
      const disposition = await options.dispositionOf?.(name!, download);
      if (disposition) reply.header('content-disposition', disposition);
    });
    await uploads.register(fastifyStatic, {
      root: options.mediaDir,
      prefix: '/media/',
      decorateReply: false,
      index: false,
      list: false,
      dotfiles: 'deny',
      cacheControl: false,
      setHeaders: (res) => res.header('cache-control', `public, max-age=${YEAR_SECONDS}, immutable`),
    });
  });
  await app.register(fastifyStatic, {
    root: path.join(ASSETS_DIR, 'defaults'),
    prefix: '/media/defaults/',
    decorateReply: false,
    index: false,
    cacheControl: false,
    setHeaders: (res) => res.header('cache-control', 'public, max-age=86400'),
  });

  const hasWebApp = existsSync(path.join(options.webDistDir, 'index.html'));
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: options.webDistDir,
      prefix: '/',
      // `/` is the app itself; every other page falls back to it below.
      index: ['index.html'],
      // The build writes .br and .gz beside each text file; browsers that accept them get those.
      preCompressed: true,
      // Files are looked up per request, so a rebuild while the server runs is served at once.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? `public, max-age=${YEAR_SECONDS}, immutable` : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const isPage =
      hasWebApp &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !url.startsWith('/api') &&
      !url.startsWith('/media/') &&
      // Browsers ask for pages with Accept: text/html; a missing script or image stays a 404.
      (request.headers.accept ?? '').includes('text/html');
    if (isPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', options.webDistDir);
    }
    const message = url.startsWith('/media/') ? NO_SUCH_FILE : ERRORS.routeNotFound;
    return reply.code(404).send({ errors: [message] });
  });
}
