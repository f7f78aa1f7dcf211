// The pins module's public face: an artist's pinned works (its post_pins table) and their routes.
export { createPinsService, PIN_ERRORS, type PinsService } from './pins.service.js';
export { pinsRoutes } from './pins.routes.js';
