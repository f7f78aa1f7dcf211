// The live module's public face: the hub that serves the live socket, and its route.
export { wireLive } from './live.module.js';
export type { LiveTimings } from './live.hub.js';
