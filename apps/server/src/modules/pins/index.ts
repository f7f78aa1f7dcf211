// The pins module's public face: an artist's pinned works (its post_pins table) and their routes.
export { wirePins, type PinsModule } from './pins.module.js';
export { PIN_ERRORS, type PinsService } from './pins.service.js';
