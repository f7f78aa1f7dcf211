// The live module's public face: the hub that serves the live socket, and its route.
export { createLiveHub, type LiveHub, type LiveTimings } from './live.hub.js';
export { liveRoutes } from './live.routes.js';
