// The search module's public face: one route that searches people and posts.
export { wireSearch } from './search.module.js';
