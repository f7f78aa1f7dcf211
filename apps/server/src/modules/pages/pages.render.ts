import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { SOURCE_LOCALE, type Locale } from '../../lib/i18n.js';

/**
 * The web app's server render of a shared page (apps/web/src/entry-server.tsx, issue 22): the page's markup
 * for `#root`, drawn by the app's own components from the API's answers to the requests the page sends first.
 */

/** The web app's server render (apps/web/src/entry-server.tsx). */
export interface PageRenderer {
  /** The GET paths the page at `url` (path and query) asks for first, as a visitor; none: not rendered. */
  firstRequests: (url: string) => string[];
  /**
   * The page's markup for `#root`, from those answers; undefined when the app would redirect instead. With
   * `viewer` (the answer to POST /api/auth/verify), as that signed-in viewer's page; in `locale` (one of LOCALES,
   * issue 43; absent: English).
   */
  render: (
    url: string,
    answers: readonly { path: string; body: string }[],
    viewer?: string,
    locale?: string,
  ) => Promise<string | undefined>;
  /** The GET paths a signed-in viewer's Home (`/` and its query) asks for first, with the viewer's token. */
  homeRequests?: (url: string) => string[];
  /** The stylesheets each drawn page's route loads (the web build's shared-page-styles.json). */
  styles: Partial<Record<SharedRoute, string[]>>;
}

type SharedRoute = 'post' | 'profile' | 'tag' | 'series' | 'collection' | 'feed';

/** A stylesheet of the web build: `/assets/name-hash.css` (or under another base path). */
const STYLESHEET = /^\/[\w./-]+\.css$/;

/** The route of a shared page's address (the pages module only draws these three). */
function routeOf(url: string): SharedRoute {
  const segments = url.split('?')[0]!.split('/').filter(Boolean);
  if (segments.length === 1) return 'profile';
  if (segments.length === 3 && segments[1] === 'series') return 'series';
  if (segments.length === 3 && segments[1] === 'collections') return 'collection';
  return segments[0] === 'tags' ? 'tag' : 'post';
}

/** A GET of the API as a visitor (no token): the answer's body when it is a 200, else undefined. */
export type ReadApi = (path: string) => Promise<string | undefined>;

/** The API read in-process (no network), as a visitor's browser would: the very answers it would get. */
export const apiReader =
  (app: FastifyInstance): ReadApi =>
  async (path) => {
    const response = await app.inject({ method: 'GET', url: path, headers: { accept: 'application/json' } });
    return response.statusCode === 200 ? response.body : undefined;
  };

/**
 * Where the web build puts its server render: beside the built app (apps/web/dist → apps/web/dist-ssr).
 * Outside the folder served to browsers: it is the server's code, not the app's.
 */
export const ssrEntryOf = (webDistDir: string) => path.join(`${path.resolve(webDistDir)}-ssr`, 'entry-server.js');

/**
 * The server render when the web app's build made one, else undefined: the pages then answer with their head
 * alone and the app draws them in the browser (API-only tests, a build without it).
 */
export async function loadPageRenderer(webDistDir: string): Promise<PageRenderer | undefined> {
  const file = ssrEntryOf(webDistDir);
  if (!existsSync(file)) return undefined;
  const module = (await import(pathToFileURL(file).href)) as Partial<PageRenderer>;
  if (typeof module.render !== 'function' || typeof module.firstRequests !== 'function') {
    throw new Error(`${file} does not export render() and firstRequests(): rebuild the web app (npm run build).`);
  }
  const stylesFile = path.join(webDistDir, 'shared-page-styles.json');
  const listed = existsSync(stylesFile) ? (JSON.parse(readFileSync(stylesFile, 'utf8')) as PageRenderer['styles']) : {};
  // Written into the page as they are: only plain addresses of the build's own stylesheets.
  const styles = Object.fromEntries(
    Object.entries(listed).map(([route, hrefs]) => [route, (hrefs ?? []).filter((href) => STYLESHEET.test(href))]),
  );
  return {
    render: module.render,
    firstRequests: module.firstRequests,
    ...(typeof module.homeRequests === 'function' ? { homeRequests: module.homeRequests } : {}),
    styles,
  };
}

/** What a failed render is reported to (the app's logger). */
interface RenderLog {
  error: (details: object, message: string) => void;
}

/** A shared page drawn on the server: its `#root` markup and the API answers it was drawn from. */
export interface RenderedRoot {
  root: string;
  /** The stylesheets its markup needs before it is drawn (the app's own, which it would load itself). */
  styles: string[];
  /** The answers as JSON (`{"/api/…": answer, …}`), for `<script type="application/json" id=PAGE_DATA_ID>`. */
  data: string;
}

/**
 * A shared page drawn on the server in `locale`, or undefined when there is none to give: no server render, a page
 * whose first requests do not all answer (a post shown to signed-in people only), or a render that failed
 * (reported; the app then draws the page in the browser, as it does without a server render, so a visitor
 * never gets an error for it).
 */
export async function renderRoot(
  renderer: PageRenderer | undefined,
  url: string,
  read: ReadApi,
  log: RenderLog,
  locale: Locale = SOURCE_LOCALE,
): Promise<RenderedRoot | undefined> {
  if (!renderer) return undefined;
  try {
    const paths = renderer.firstRequests(url);
    if (paths.length === 0) return undefined;
    const bodies = await Promise.all(paths.map(read));
    const answers = paths.flatMap((path, i) => (bodies[i] === undefined ? [] : [{ path, body: bodies[i] }]));
    if (answers.length < paths.length) return undefined;
    const root = await renderer.render(url, answers, undefined, locale);
    if (root === undefined) return undefined;
    // Each body is the API's JSON text: written in as it is, not parsed and written again.
    const data = `{${answers.map(({ path, body }) => `${JSON.stringify(path)}:${body}`).join(',')}}`;
    return { root, data, styles: renderer.styles[routeOf(url)] ?? [] };
  } catch (error) {
    log.error({ err: error, url }, 'server render of a shared page failed; the app draws it in the browser');
    return undefined;
  }
}

/** The path of the token check, whose answer (the viewer) the app's sign-in guard waits for. */
export const VERIFY_PATH = '/api/auth/verify';

/**
 * The page-data key of the token check's answer: the app asks for it with a POST (lib/session/current-user.ts),
 * and the boot script takes a key that names its method as that request's (boot/page-data.ts).
 */
export const VERIFY_KEY = `POST ${VERIFY_PATH}`;

/** The API asked in-process with a session's token: status and body of a GET, or of the token check. */
export interface SessionApi {
  verify: (token: string) => Promise<{ status: number; body: string }>;
  read: (path: string, token: string) => Promise<string | undefined>;
}

export const sessionApi = (app: FastifyInstance): SessionApi => ({
  async verify(token) {
    const response = await app.inject({
      method: 'POST',
      url: VERIFY_PATH,
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      payload: JSON.stringify({ encodedToken: token }),
    });
    return { status: response.statusCode, body: response.body };
  },
  async read(path, token) {
    const response = await app.inject({
      method: 'GET',
      url: path,
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
    return response.statusCode === 200 ? response.body : undefined;
  },
});

/** A signed-in viewer's Home: drawn (in `locale`), not drawn (the plain app), or the cookie's session is over. */
export type RenderedHome =
  { kind: 'drawn'; drawn: RenderedRoot; locale: Locale } | { kind: 'plain' } | { kind: 'ended' };

/** The language the account behind a token check's answer chose (`settings.language`), if it says. */
function chosenLanguageOf(verified: string): string | null | undefined {
  try {
    const { user } = JSON.parse(verified) as { user?: { settings?: { language?: unknown } } };
    const language = user?.settings?.language;
    return typeof language === 'string' ? language : null;
  } catch {
    return undefined;
  }
}

/**
 * Home (`/`) drawn on the server for the session a document request's cookie carries (issue 22): the token
 * checked as the app checks it (POST /api/auth/verify: a forged, expired or ended session answers 401, an
 * account gone 404: the cookie is then over), the page's first requests answered with the viewer's token, and
 * the app's render of Home from them, in the language `localeOf` makes of the one the account chose (issue 43). The
 * plain app (drawn in the browser) when there is no server render or anything else fails (reported).
 */
export async function renderHome(
  renderer: PageRenderer | undefined,
  url: string,
  token: string,
  api: SessionApi,
  log: RenderLog,
  localeOf: (chosen: string | null | undefined) => Locale = () => SOURCE_LOCALE,
): Promise<RenderedHome> {
  if (!renderer?.homeRequests) return { kind: 'plain' };
  try {
    const verified = await api.verify(token);
    if (verified.status === 401 || verified.status === 404) return { kind: 'ended' };
    if (verified.status !== 200) return { kind: 'plain' };
    const paths = renderer.homeRequests(url);
    const bodies = await Promise.all(paths.map((path) => api.read(path, token)));
    const answers = paths.flatMap((path, i) => (bodies[i] === undefined ? [] : [{ path, body: bodies[i] }]));
    if (answers.length < paths.length) return { kind: 'plain' };
    const locale = localeOf(chosenLanguageOf(verified.body));
    const root = await renderer.render(url, answers, verified.body, locale);
    if (root === undefined) return { kind: 'plain' };
    const entries = [...answers, { path: VERIFY_KEY, body: verified.body }];
    const data = `{${entries.map(({ path, body }) => `${JSON.stringify(path)}:${body}`).join(',')}}`;
    return { kind: 'drawn', drawn: { root, data, styles: renderer.styles.feed ?? [] }, locale };
  } catch (error) {
    log.error({ err: error, url }, 'server render of Home failed; the app draws it in the browser');
    return { kind: 'plain' };
  }
}
