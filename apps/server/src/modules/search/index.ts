// The search module's public face: one route that searches people and posts.
export { searchRoutes } from './search.routes.js';
