// The atom module's public face: each artist's Atom feed of their works.
export { wireAtom } from './atom.module.js';
export { FEED_ENTRIES, feedPath, writeFeed, type AtomFeed, type AtomService, type FeedHead } from './atom.service.js';
export { MAX_AGE_SECONDS, replyWithFeed } from './atom.routes.js';
