// The health module's public face: the health route.
export { healthRoutes } from './health.routes.js';
