// The tags feature's public face: a tag's page is a lazy route (app/router.tsx); the server's render of it
// (src/entry-server.tsx) reads a tag from its address as the page does.
export { tagFromParam } from './api/get-tag';
export { tagKeys } from './api/tag-keys';
