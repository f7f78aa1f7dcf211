import { hash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ERRORS, localeDirection, RIGHTS_ERRORS } from '@share-arts/contract';
import { ASSETS_DIR } from '../lib/assets.js';
import { pageLocale, SOURCE_LOCALE, type Locale } from '../lib/i18n.js';
import { registerShareTarget } from './share-target.js';

const YEAR_SECONDS = 31_536_000;
const NO_SUCH_FILE = 'No such media file.';
/** Every media file has a new name: it never changes, so caches keep it a year. */
const MEDIA_CACHE_CONTROL = `public, max-age=${YEAR_SECONDS}, immutable`;

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

/** A name the server could have made: one segment, not hidden (the bucket is never listed or walked). */
const isMediaName = (name: string | undefined): name is string =>
  !!name && !name.includes('/') && !name.includes('\\') && !name.startsWith('.');

/** What the media module's storage answers for a file (the plugin imports no module: app.ts hands it in). */
type MediaRead =
  | {
      status: 'ok';
      file: {
        body: Readable;
        length: number;
        contentType?: string;
        etag?: string;
        lastModified?: Date;
        contentRange?: string;
      };
    }
  | { status: 'not-modified' }
  | { status: 'bad-range' }
  | { status: 'missing' };

interface MediaFiles {
  kind: 'local' | 's3';
  read(name: string, options?: { range?: string; ifNoneMatch?: string }): Promise<MediaRead>;
}

export interface StaticFilesOptions {
  mediaDir: string;
  /**
   * The picture storage: with MEDIA_STORE=s3 the files are streamed from the bucket (with the headers the
   * media folder's get); unset or local, the media folder is served.
   */
  storage?: MediaFiles;
  webDistDir: string;
  /**
   * The Content-Disposition of a media file, when it has one (an original, named as it was uploaded):
   * `download` when the URL asks for `?download`. Handed in by app.ts from the media module.
   */
  dispositionOf?: (file: string, download: boolean) => Promise<string | undefined>;
  /**
   * The artist's rights on a media file (issue 23): its X-Robots-Tag (AI-training opt-out), whether a
   * download of it is refused (403), and whether it is served to nobody (`removed`: a moderator removed the
   * post showing it, issue 38, item 6: 404, stored by no cache). Handed in by app.ts from the media module.
   */
  rightsOf?: (
    file: string,
    download: boolean,
  ) => Promise<{ robots?: string; refuseDownload: boolean; removed?: boolean }>;
  /**
   * The head of a page a link is shared to (a post, a profile, a tag), as markup, its status, and the page
   * itself rendered for `#root` when the server renders it, with the stylesheets it needs; undefined for any
   * other path. `url` is the address with its query (a tag page's sort); `locale` the language the page is drawn
   * in (issue 43: the browser's saved choice, else its Accept-Language). Handed in by app.ts from the pages module.
   */
  sharedPage?: (
    pathname: string,
    origin: string,
    url: string,
    locale: Locale,
  ) => Promise<{ status: number; head: string; root?: string; styles?: string[] } | undefined>;
  /**
   * Home (`/`) for a document request: undefined when the request carries no session (the app's index.html as
   * any file); else `private` (the answer depends on the person's cookie: never stored by a cache), with the
   * viewer's page drawn on the server when there is one, with its language (issue 43). It may set a cookie on `reply`
   * (an ended session's is cleared). Handed in by app.ts from the pages and sessions modules.
   */
  homePage?: (
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<{ private: true; page?: { head: string; root: string; styles: string[]; locale: Locale } } | undefined>;
  /** The site's public origin (PUBLIC_ORIGIN); undefined: taken from the request's Host when it is plain. */
  publicOrigin?: string;
}

/** A plain host name or IPv4 address with an optional port: nothing a forged Host could smuggle in. */
const PLAIN_HOST = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?(?::\d{1,5})?$/;

/** The origin absolute URLs in a page's head start with; undefined when neither config nor Host gives one. */
export function originOf(request: FastifyRequest, publicOrigin: string | undefined): string | undefined {
  if (publicOrigin) return publicOrigin;
  const host = request.headers.host;
  return host && PLAIN_HOST.test(host) ? `${request.protocol}://${host}` : undefined;
}

/**
 * Preview robots often send `Accept: *\/*` or no Accept at all; a browser sends text/html. Anything else (a
 * script's or an image's request, an API client asking for JSON) is not asking for a page.
 */
const acceptsPage = (accept: string | undefined) =>
  accept === undefined || accept === '' || accept.includes('text/html') || accept.includes('*/*');

/** A stylesheet link vite writes into index.html (the entry's CSS). */
const ENTRY_STYLESHEET = /[ \t]*<link rel="stylesheet"(?: crossorigin)? href="([^"]+)">[ \t]*\n?/g;
/** The app's entry and the files it imports, as vite writes them into index.html. */
const ENTRY_SCRIPT = /[ \t]*<script type="module" crossorigin src="(\/[\w./-]+\.js)"><\/script>[ \t]*\n?/;
const MODULE_PRELOAD = /[ \t]*<link rel="modulepreload" crossorigin href="(\/[\w./-]+\.js)">[ \t]*\n?/g;
/** The address of one of the build's stylesheets: `/assets/name-hash.css`. */
const BUILT_STYLESHEET = /^\/[\w/-]+(?:\.[\w-]+)*\.css$/;
/** What keeps a stylesheet from being written inline: the end of its element, or an address relative to its file. */
const NOT_INLINE = /<\/style|url\(\s*['"]?(?![a-z]+:|\/|#)/i;

/**
 * The text of one of the build's stylesheets, to write inline (undefined when it cannot be: not one of the
 * build's, missing, or not safe to move out of its file). The files are immutable (their names carry their
 * hash), so each is read once.
 */
function createStylesheetReader(webDistDir: string) {
  const read = new Map<string, Promise<string | undefined>>();
  return (href: string): Promise<string | undefined> => {
    let text = read.get(href);
    if (!text) {
      text = BUILT_STYLESHEET.test(href)
        ? readFile(path.join(webDistDir, href), 'utf8').then(
            (css) => (NOT_INLINE.test(css) ? undefined : css),
            () => undefined,
          )
        : Promise.resolve(undefined);
      read.set(href, text);
    }
    return text;
  };
}

/** index.html's `<html>` start tag (`<html lang="en">`). */
const HTML_START = /<html\b[^>]*>/i;

/**
 * index.html's `<html>` tag for a page in `locale` (issue 43): its `lang`, and `dir="rtl"` for a language written
 * right to left, so the page is laid out in its direction before any script runs. English leaves the tag as built.
 */
function htmlStartIn(tag: string, locale: Locale): string {
  if (locale === SOURCE_LOCALE) return tag;
  const attributes = tag
    .slice('<html'.length, -1)
    .replace(/\s(?:lang|dir)(?:=(?:"[^"]*"|'[^']*'|[^\s"'>]*))?/gi, '')
    .trimEnd();
  const dir = localeDirection(locale) === 'rtl' ? ' dir="rtl"' : '';
  return `<html${attributes} lang="${locale}"${dir}>`;
}

/** index.html cut where a page's own head and its `#root` markup go (`root`: whether it has `#root`). */
interface PageShell {
  top: string;
  middle: string;
  bottom: string;
  root: boolean;
}

function shellOf(html: string): PageShell {
  const before = /<meta name="viewport"[^>]*>/i.exec(html) ?? /<meta charset=[^>]*>/i.exec(html);
  const at = before ? before.index + before[0].length : html.indexOf('<head>') + '<head>'.length;
  const rest = html.slice(at);
  const root = rest.indexOf('<div id="root"></div>');
  const top = html.slice(0, at);
  return root < 0
    ? { top, middle: rest, bottom: '', root: false }
    : { top, middle: rest.slice(0, root), bottom: rest.slice(root + '<div id="root"></div>'.length), root: true };
}

/**
 * The built index.html with a page's head spliced in (and its body in `#root` when the server rendered it): its
 * own tags go right after the charset and viewport (before the scripts, so the preload scanner sees the
 * picture at once, and the inline JSON is there before any script looks for it), in place of the generic
 * title, description and robots. The file is read once, when the server starts, as are the web build's server
 * render and the CSP's hash of its head script (plugins/security.ts): a new build needs a restart.
 *
 * A page drawn on the server carries its stylesheets inline, the entry's and its route's in the order the app
 * adds them, before the head script (issue 22): a file each held the first paint back by a round trip on a
 * phone (Lighthouse: 5 to 7 render-blocking requests). Each `<style>` is followed by a disabled link of the
 * file's address, which a browser never fetches, so neither the boot script nor the app asks for it again.
 * Its scripts are named in `<meta name="app-scripts">` (the entry, then what it imports) instead of tags of
 * their own: the boot script asks for them once the page is painted (apps/web/src/boot/boot.ts), so the art
 * has a phone's network to itself first.
 */
async function createTemplate(webDistDir: string) {
  const stylesheet = createStylesheetReader(webDistDir);
  const page = (await readFile(path.join(webDistDir, 'index.html'), 'utf8'))
    .replace(/[ \t]*<title>[^<]*<\/title>[ \t]*\n?/i, '')
    .replace(/[ \t]*<meta name="description"[^>]*>[ \t]*\n?/i, '')
    // The page's own head says whether its artist asks AI crawlers not to train on their work.
    .replace(/[ \t]*<meta name="robots"[^>]*>[ \t]*\n?/i, '');
  const entryStyles = [...page.matchAll(ENTRY_STYLESHEET)].map((match) => match[1]!);
  const entry = ENTRY_SCRIPT.exec(page)?.[1];
  const imports = [...page.matchAll(MODULE_PRELOAD)].map((match) => match[1]!);
  // As the page is, and with its entry's stylesheet and scripts taken out, for a drawn page that names them.
  const withFiles = shellOf(page);
  let inline = page.replace(ENTRY_STYLESHEET, '');
  if (entry) inline = inline.replace(ENTRY_SCRIPT, '').replace(MODULE_PRELOAD, '');
  const withInline = shellOf(inline);
  const appScripts = entry ? `\n    <meta name="app-scripts" content="${[entry, ...imports].join(' ')}">` : '';

  // The page drawn on the server, which the app replaces with its own first render (main.tsx).
  const body = (shell: PageShell, root: string) => (shell.root ? `<div id="root">${root}</div>` : '');

  // The page's language on its `<html>` tag (in the top part, before its head).
  const inLanguage = (top: string, locale: Locale) => top.replace(HTML_START, (tag) => htmlStartIn(tag, locale));

  return async (
    head: string,
    root = '',
    styles: readonly string[] = [],
    locale: Locale = SOURCE_LOCALE,
  ): Promise<string> => {
    if (root) {
      const hrefs = [...entryStyles, ...styles];
      const texts = await Promise.all(hrefs.map(stylesheet));
      if (texts.every((text) => text !== undefined)) {
        const styled = hrefs
          .map((href, i) => `<style>${texts[i]}</style><link rel="stylesheet" crossorigin href="${href}" disabled>`)
          .join('\n    ');
        const { top, middle, bottom } = withInline;
        const start = inLanguage(top, locale);
        return `${start}\n    ${head}\n    ${styled}${appScripts}${middle}${body(withInline, root)}${bottom}`;
      }
    }
    // As files after the app's own (the order the app adds them in): the app does not add them again.
    const links = root ? styles.map((href) => `  <link rel="stylesheet" crossorigin href="${href}">\n  `).join('') : '';
    const { top, middle, bottom } = withFiles;
    const start = inLanguage(top, locale);
    return `${start}\n    ${head}${middle.replace('</head>', () => `${links}</head>`)}${body(withFiles, root)}${bottom}`;
  };
}

/**
 * Uploaded media (immutable: every file has a new name), the shipped default pictures, and the built
 * web app with a history fallback so deep links such as /settings load the app.
 */
export async function registerStaticFiles(app: FastifyInstance, options: StaticFilesOptions): Promise<void> {
  const fromBucket = options.storage?.kind === 's3' ? options.storage : undefined;
  await app.register(async (uploads) => {
    uploads.addHook('onRequest', async (request, reply) => {
      const name = (request.params as { '*'?: string })['*'];
      const known = fromBucket ? isMediaName(name) : await isMediaFile(options.mediaDir, name);
      if (!known) return reply.code(404).send({ errors: [NO_SUCH_FILE] });
      const download = (request.query as Record<string, unknown>).download !== undefined;
      const rights = await options.rightsOf?.(name!, download);
      // As if there were no such file, and not remembered by any cache: a later answer may differ.
      if (rights?.removed)
        return reply
          .code(404)
          .header('cache-control', 'no-store')
          .send({ errors: [NO_SUCH_FILE] });
      if (rights?.refuseDownload) return reply.code(403).send({ errors: [RIGHTS_ERRORS.downloadRefused] });
      if (rights?.robots) reply.header('x-robots-tag', rights.robots);
      const disposition = await options.dispositionOf?.(name!, download);
      if (disposition) reply.header('content-disposition', disposition);
    });
    if (fromBucket) {
      // GET and HEAD (Fastify's own HEAD would read the whole file from the bucket to throw it away).
      uploads.route({
        method: ['GET', 'HEAD'],
        url: '/media/*',
        exposeHeadRoute: false,
        handler: async (request, reply) => {
          const name = (request.params as { '*': string })['*'];
          const range = request.headers.range;
          const ifNoneMatch = request.headers['if-none-match'];
          const found = await fromBucket.read(name, {
            ...(range ? { range } : {}),
            ...(ifNoneMatch ? { ifNoneMatch } : {}),
          });
          reply.header('cache-control', MEDIA_CACHE_CONTROL);
          if (found.status === 'missing') {
            return reply
              .code(404)
              .header('cache-control', 'no-cache')
              .send({ errors: [NO_SUCH_FILE] });
          }
          if (found.status === 'not-modified') return reply.code(304).send();
          if (found.status === 'bad-range') return reply.code(416).send();
          const { file } = found;
          reply
            .type(file.contentType ?? 'application/octet-stream')
            .header('accept-ranges', 'bytes')
            .header('content-length', file.length);
          if (file.etag) reply.header('etag', file.etag);
          if (file.lastModified) reply.header('last-modified', file.lastModified.toUTCString());
          if (file.contentRange) reply.code(206).header('content-range', file.contentRange);
          if (request.method === 'HEAD') {
            // The headers are the answer: the bucket's connection is let go at once.
            file.body.destroy();
            return reply.send();
          }
          return reply.send(file.body);
        },
      });
    } else {
      await uploads.register(fastifyStatic, {
        root: options.mediaDir,
        prefix: '/media/',
        decorateReply: false,
        index: false,
        list: false,
        dotfiles: 'deny',
        cacheControl: false,
        setHeaders: (res) => res.header('cache-control', MEDIA_CACHE_CONTROL),
      });
    }
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
        // The service worker (issue 44): checked for a new version on every visit (no-cache above), and allowed
        // to control the whole site from its address at the root.
        if (path.basename(filePath) === 'sw.js') res.header('service-worker-allowed', '/');
      },
    });
  }
  // What a phone shares to the installed app, when its service worker did not take it (issue 44).
  await registerShareTarget(app);

  const pageHtml = hasWebApp ? await createTemplate(options.webDistDir) : undefined;
  const sharedPage = options.sharedPage;
  const homePage = options.homePage;
  if (pageHtml && homePage) {
    // Before the static files' own answer for `/`: a signed-in viewer's Home may be drawn on the server.
    app.get('/', async (request, reply) => {
      // Whether the answer is the viewer's own depends on the Cookie header, for every answer of `/`.
      reply.header('vary', 'Cookie');
      const home = acceptsPage(request.headers.accept) ? await homePage(request, reply) : undefined;
      if (home?.page) {
        const { head, root, styles, locale } = home.page;
        const html = await pageHtml(head, root, styles, locale);
        // Drawn in the language of the cookie, the account or the browser's Accept-Language (issue 43).
        return reply
          .header('vary', 'Cookie, Accept-Language')
          .header('content-language', locale)
          .header('cache-control', 'private, no-store')
          .type('text/html; charset=utf-8')
          .send(html);
      }
      if (!home) return reply.header('cache-control', 'no-cache').sendFile('index.html', options.webDistDir);
      // The plain app, but an answer to the person's cookie (it may clear it): the file's own headers would say
      // no-cache.
      const html = await readFile(path.join(options.webDistDir, 'index.html'), 'utf8');
      return reply.header('cache-control', 'private, no-store').type('text/html; charset=utf-8').send(html);
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url;
    const read = request.method === 'GET' || request.method === 'HEAD';
    const origin = originOf(request, options.publicOrigin);
    if (pageHtml && read && sharedPage && origin && acceptsPage(request.headers.accept)) {
      const pathname = url.split('?')[0]!;
      // The visitor's language (issue 43): the one saved in their browser (its cookie), else their Accept-Language.
      const locale = pageLocale({ cookie: request.headers.cookie, acceptLanguage: request.headers['accept-language'] });
      const page =
        pathname.startsWith('/api') || pathname.startsWith('/media/')
          ? undefined
          : await sharedPage(pathname, origin, url, locale);
      if (page) {
        const html = await pageHtml(page.head, page.root, page.styles, locale);
        const etag = `"${hash('sha256', html, 'base64url').slice(0, 27)}"`;
        // The head follows the post (its text, pictures, counts): a cache asks each time, and gets a 304 when
        // nothing changed (the ETag is the page's, so each language has its own). The answer differs by Accept (an
        // API client gets JSON), and by the language asked for and saved.
        reply
          .header('cache-control', 'no-cache')
          .header('etag', etag)
          .header('vary', 'Accept, Accept-Language, Cookie')
          .header('content-language', locale);
        if (page.status === 200 && request.headers['if-none-match'] === etag) return reply.code(304).send();
        return reply.code(page.status).type('text/html; charset=utf-8').send(html);
      }
    }
    const isPage =
      hasWebApp &&
      read &&
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
