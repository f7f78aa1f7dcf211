/**
 * The server's render of the pages a link is shared to (a post, a profile, a tag; issue 22): the app's own
 * routes and components, rendered to markup for `#root`, so the first paint shows the art before any script
 * has run. Built on its own (`vite build --ssr`, into dist-ssr) and imported by the server's pages module
 * when present.
 *
 * The page renders as a visitor's (the server has no token: it lives in the browser's localStorage), with the
 * API answers the server read for it, handed over as the boot script hands over its own (lib/boot-data.ts):
 * the queries take them as their first data. main.tsx keeps this markup on screen until the app's first
 * complete render replaces it.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { loadProviders } from './app/load-providers';
import { queryClient } from './app/query-client';
import { routes } from './app/router';
import { BOOT_GLOBAL, bootKey, type BootState } from './lib/boot-data';

const handler = createStaticHandler(routes);

/** An API answer the page's queries would ask for: `GET path` answered with `body` (JSON text). */
export interface PageAnswer {
  path: string;
  body: string;
}

/**
 * The markup of `url`'s page (path and query) as a visitor's first render, given the API answers its
 * queries ask for first; undefined when the router answers with a redirect instead of a page.
 */
export async function render(url: string, answers: readonly PageAnswer[]): Promise<string | undefined> {
  await loadProviders();
  // Matches the address and loads the route modules (their `lazy`), as the browser's router does first.
  const context = await handler.query(new Request(new URL(url, 'http://localhost')));
  if (context instanceof Response) return undefined;
  const router = createStaticRouter(handler.dataRoutes, context);

  // From here on nothing awaits: the shared query client and the answers belong to this render alone.
  const state: BootState = { token: null, startedAt: performance.now(), requests: {} };
  for (const { path, body } of answers) {
    const result = { status: 200, body };
    state.requests[bootKey('GET', path)] = { promise: Promise.resolve(result), result };
  }
  const global = globalThis as unknown as Record<string, BootState | undefined>;
  queryClient.clear();
  global[BOOT_GLOBAL] = state;
  try {
    return renderToString(
      <StrictMode>
        {/* No hydration data: the browser's router starts afresh (and the CSP allows no inline script). */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </StrictMode>,
    );
  } finally {
    delete global[BOOT_GLOBAL];
    queryClient.clear();
  }
}
