// The pages module's public face: the heads of the pages a link is shared to (post, profile, tag), written
// into the app's index.html by the static files plugin, so previews and the first paint need no script; and
// their body, rendered by the web app's own components when its build made a server render.
export { wirePages } from './pages.module.js';
export type { PagesService, SharedPage } from './pages.service.js';
export type { PageHead } from './pages.html.js';
export { ssrEntryOf, type PageRenderer, type RenderedHome } from './pages.render.js';
export { ROBOTS_TXT, AI_CRAWLERS } from './robots.routes.js';
