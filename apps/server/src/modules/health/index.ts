// The health module's public face: the health route.
export { wireHealth } from './health.module.js';
