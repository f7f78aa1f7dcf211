// The atom module's public face: each artist's Atom feed of their works.
export { wireAtom } from './atom.module.js';
export { feedPath, type AtomService } from './atom.service.js';
