/**
 * The server's render of the pages a link is shared to (a post, a profile, a tag; issue 22): the app's own
 * routes and components, rendered to markup for `#root`, so the first paint shows the art before any script
 * has run. Built on its own (`vite build --ssr`, into dist-ssr) and imported by the server's pages module
 * when present.
 *
 * The page renders as a visitor's (the server has no token: it lives in the browser's localStorage), with the
 * API answers the server read for it, handed over as the boot script hands over its own (lib/boot-data.ts):
 * the queries take them as their first data. main.tsx keeps this markup on screen until the app's first
 * complete render replaces it. Home (`/`) is drawn too, for a signed-in viewer whose session cookie came with
 * the document request (issue 22): with the answers the server read with that session's token, as theirs.
 */
import { isLocale, SORTS, SOURCE_LOCALE, TAG_ROUTES, type Sort, type VerifyResponse } from '@share-arts/contract';
import { I18nProvider } from '@lingui/react';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { loadProviders } from './app/load-providers';
import { queryClient } from './app/query-client';
import { routes } from './app/router';
import { userPath } from './features/people';
import { postPagePath } from './features/posts';
import { seriesPaths } from './features/series';
import { collectionPaths } from './features/collections';
import { tagFromParam } from './features/tags';
import { BOOT_GLOBAL, bootKey, type BootState } from './lib/boot-data';
import { i18n, loadForServer, renderIn } from './lib/i18n';
import { postPath, SUGGESTIONS_SHOWN, suggestionsPath } from './lib/first-requests';
import { sessionKeys } from './lib/session';
import { renderWithPictures } from './ui/picture-gate';

const handler = createStaticHandler(routes);

/** An API answer the page's queries would ask for: `GET path` answered with `body` (JSON text). */
export interface PageAnswer {
  path: string;
  body: string;
}

/**
 * The API requests (GET paths) a visitor's first render of `url` asks for, by the paths the app's queries
 * use: a post page's post and its series; a profile, its pinned works, its first page of works and its series; a
 * tag, and its first page of works in the address's sort; a series. None for any other page, and none for an
 * address the page would redirect (a tag in capitals).
 */
export function firstRequests(url: string): string[] {
  const { pathname, searchParams } = new URL(url, 'http://localhost');
  let segments: string[];
  try {
    segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return [];
  }
  const [first, second, third] = segments;
  if (segments.length === 2 && first === 'posts') return [postPath(second!), seriesPaths.ofPost(second!)];
  if (segments.length === 2 && first === 'tags') {
    const tag = tagFromParam(second);
    if (!tag || tag !== second) return [];
    const asked = searchParams.get('sort');
    const sort = SORTS.includes(asked as Sort) ? (asked as Sort) : 'latest';
    return [TAG_ROUTES.tag(tag), postPagePath({ kind: 'tag', tag }, sort, null)];
  }
  if (segments.length === 1 && first) {
    return [
      userPath(first),
      postPagePath({ kind: 'pins', username: first }, 'latest', null),
      postPagePath({ kind: 'user', username: first }, 'latest', null),
      // The row of the artist's series above the grid (drawn, so the grid does not move when it arrives).
      seriesPaths.list(first),
    ];
  }
  // A series (issue 41): its title, owner and cover; its works are read by its id, which the address does not hold.
  if (segments.length === 3 && second === 'series') return [seriesPaths.bySlug(first!, third!)];
  // A public collection (issue 41): its title, owner and description; its works are read by its id.
  if (segments.length === 3 && second === 'collections') return [collectionPaths.bySlug(first!, third!)];
  return [];
}

/**
 * The GET paths a signed-in viewer's Home (`/`, its sort in the query) asks for first, as the boot script sends
 * them (boot/page-data.ts): the feed's first page and the suggestions beside it. Asked with the viewer's token.
 */
export function homeRequests(url: string): string[] {
  const asked = new URL(url, 'http://localhost').searchParams.get('sort');
  const sort = SORTS.includes(asked as Sort) ? (asked as Sort) : 'latest';
  return [postPagePath({ kind: 'feed' }, sort, null), suggestionsPath(SUGGESTIONS_SHOWN)];
}

/**
 * The markup of `url`'s page (path and query) as a visitor's first render, given the API answers its
 * queries ask for first; undefined when the router answers with a redirect instead of a page. With `viewer`
 * (the API's answer to POST /api/auth/verify for the session's token), the page as that viewer's first render
 * (Home, issue 22): its wrapper names the viewer, so the head script shows it only to the same account.
 */
export async function render(
  url: string,
  answers: readonly PageAnswer[],
  viewer?: string,
  locale?: string,
): Promise<string | undefined> {
  await loadProviders();
  // In the visitor's language (issue 43), which the server chose: their saved choice (the cookie), the account's, or
  // their browser's.
  const language = isLocale(locale) ? locale : SOURCE_LOCALE;
  await loadForServer(language);
  // Matches the address and loads the route modules (their `lazy`), as the browser's router does first.
  const context = await handler.query(new Request(new URL(url, 'http://localhost')));
  if (context instanceof Response) return undefined;
  const router = createStaticRouter(handler.dataRoutes, context);

  // From here on nothing awaits: the shared query client, the answers and the language belong to this render alone.
  renderIn(language);
  const state: BootState = { token: null, startedAt: performance.now(), requests: {} };
  for (const { path, body } of answers) {
    const result = { status: 200, body };
    state.requests[bootKey('GET', path)] = { promise: Promise.resolve(result), result };
  }
  const global = globalThis as unknown as Record<string, BootState | undefined>;
  queryClient.clear();
  global[BOOT_GLOBAL] = state;
  const user = viewer === undefined ? undefined : (JSON.parse(viewer) as VerifyResponse).user;
  // The session's user, as the sign-in guard would have it from the verified token (the server has no storage).
  if (user) queryClient.setQueryData(sessionKeys.currentUser(), user);
  try {
    // In a wrapper of its own (styles/global.css: laid out as if it were not there, hidden from someone
    // signed in), which the app's first render replaces with the rest of the server's markup.
    // The viewer's Home gives its first card's picture alone a file (ui/picture-gate.ts).
    const wrapper = user
      ? `<div class="server-drawn" data-viewer="${encodeURIComponent(user._id)}" data-pictures="priority">`
      : '<div class="server-drawn">';
    const markup = renderWithPictures(user ? 'priority' : 'all', () =>
      renderToString(
        <StrictMode>
          {/* No hydration data: the browser's router starts afresh (and the CSP allows no inline script). */}
          <I18nProvider i18n={i18n}>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </I18nProvider>
        </StrictMode>,
      ),
    );
    return `${wrapper}${markup}</div>`;
  } finally {
    delete global[BOOT_GLOBAL];
    queryClient.clear();
  }
}
