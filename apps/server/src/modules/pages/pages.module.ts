import type { ServerContext } from '../../context.js';
import { pageLocale } from '../../lib/i18n.js';
import type { StaticFilesOptions } from '../../plugins/static-files.js';
import type { CollectionsModule } from '../collections/index.js';
import type { PostsModule } from '../posts/index.js';
import type { SeriesModule } from '../series/index.js';
import { clearSessionCookie, sessionTokenOf } from '../sessions/index.js';
import type { UsersModule } from '../users/index.js';
import { renderHead } from './pages.html.js';
import { apiReader, loadPageRenderer, renderHome, renderRoot, sessionApi } from './pages.render.js';
import { createPagesService, PAGE_DATA_ID } from './pages.service.js';
import { robotsRoutes } from './robots.routes.js';

/**
 * The pages module: GET /robots.txt, and the pages a link is shared to (a post, a profile, a tag) and a
 * signed-in viewer's Home, drawn on the server for the static files (app.ts registers them last).
 */
export async function wirePages(
  shared: ServerContext<{ webDistDir: string }>,
  {
    posts,
    users,
    series,
    collections,
  }: { posts: PostsModule; users: UsersModule; series: SeriesModule; collections: CollectionsModule },
): Promise<Pick<StaticFilesOptions, 'sharedPage' | 'homePage'>> {
  const { app, config, db, log } = shared;
  await app.register(robotsRoutes);
  const pages = createPagesService({
    db,
    posts: posts.posts,
    users: users.users,
    series: series.series,
    collections: collections.collections,
  });
  // The web build's server render of shared pages (issue 22), when there is one.
  const renderer = await loadPageRenderer(config.webDistDir);
  const readApi = apiReader(app);
  const homeApi = sessionApi(app);
  return {
    sharedPage: async (pathname, origin, url, locale) => {
      const page = await pages.render(pathname, origin, locale);
      if (!page) return undefined;
      // Drawn on the server as a visitor sees it, in their language; its first API answers go into the page for the
      // app.
      const drawn = page.status === 200 ? await renderRoot(renderer, url, readApi, log, locale) : undefined;
      if (drawn) page.head.data = { id: PAGE_DATA_ID, json: drawn.data };
      return { status: page.status, head: renderHead(page.head), root: drawn?.root, styles: drawn?.styles };
    },
    // A signed-in viewer's Home, for the session the document request's cookie carries (issue 22), in the language
    // saved in the browser, else the one the account keeps, else the browser's (issue 43).
    homePage: async (request, reply) => {
      const token = sessionTokenOf(request.headers.cookie);
      if (!token) return undefined;
      const { cookie, 'accept-language': acceptLanguage } = request.headers;
      const localeOf = (chosen: string | null | undefined) => pageLocale({ cookie, acceptLanguage, chosen });
      const home = await renderHome(renderer, request.url, token, homeApi, log, localeOf);
      if (home.kind === 'ended') clearSessionCookie(request, reply);
      if (home.kind !== 'drawn') return { private: true };
      const { root, styles, data } = home.drawn;
      const head = renderHead(pages.homeHead(token, data, home.locale));
      return { private: true, page: { head, root, styles, locale: home.locale } };
    },
  };
}
