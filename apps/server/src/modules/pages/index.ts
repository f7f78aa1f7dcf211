// The pages module's public face: the heads of the pages a link is shared to (post, profile, tag), written
// into the app's index.html by the static files plugin, so previews and the first paint need no script.
export { createPagesService, POST_DATA_ID, type PagesService, type SharedPage } from './pages.service.js';
export { renderHead, type PageHead } from './pages.html.js';
export { robotsRoutes, ROBOTS_TXT, AI_CRAWLERS } from './robots.routes.js';
