// The atom module's public face: each artist's Atom feed of their works.
export { createAtomService, feedPath, type AtomService } from './atom.service.js';
export { atomRoutes } from './atom.routes.js';
