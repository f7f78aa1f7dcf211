import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The web app's server render of a shared page (apps/web/src/entry-server.tsx, issue 22): the page's markup
 * for `#root`, drawn by the app's own components from the API answers the pages module read for it.
 */

/** An API answer the page's first render asks for: `GET path` answered with `body` (JSON text). */
export interface PageAnswer {
  path: string;
  body: string;
}

/** The markup of the page at `url` (path and query), or undefined when the app would redirect instead. */
export type RenderPage = (url: string, answers: readonly PageAnswer[]) => Promise<string | undefined>;

/**
 * Where the web build puts its server render: beside the built app (apps/web/dist → apps/web/dist-ssr).
 * Outside the folder served to browsers: it is the server's code, not the app's.
 */
export const ssrEntryOf = (webDistDir: string) => path.join(`${path.resolve(webDistDir)}-ssr`, 'entry-server.js');

/**
 * The server render when the web app's build made one, else undefined: the pages then answer with their head
 * alone and the app draws them in the browser (API-only tests, a build without it).
 */
export async function loadPageRenderer(webDistDir: string): Promise<RenderPage | undefined> {
  const file = ssrEntryOf(webDistDir);
  if (!existsSync(file)) return undefined;
  const module = (await import(pathToFileURL(file).href)) as { render?: RenderPage };
  if (typeof module.render !== 'function') throw new Error(`${file} does not export render(): rebuild the web app.`);
  return module.render;
}

/** What a failed render is reported to (the app's logger). */
interface RenderLog {
  error: (details: object, message: string) => void;
}

/**
 * The markup of a shared page's `#root`, or undefined when there is none to give: no server render, a page
 * with no answers to draw from, or a render that failed (reported; the app then draws the page in the
 * browser, as it does without a server render, so a visitor never gets an error for it).
 */
export async function renderRoot(
  render: RenderPage | undefined,
  pathname: string,
  answers: readonly PageAnswer[] | undefined,
  log: RenderLog,
): Promise<string | undefined> {
  if (!render || !answers) return undefined;
  try {
    return await render(pathname, answers);
  } catch (error) {
    log.error({ err: error, pathname }, 'server render of a shared page failed; the app draws it in the browser');
    return undefined;
  }
}
