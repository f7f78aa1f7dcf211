// The tags feature's public face: a tag's page is a lazy route (app/router.tsx); nothing else is shared yet.
export { tagKeys } from './api/tag-keys';
