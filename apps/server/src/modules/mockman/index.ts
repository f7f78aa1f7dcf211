// The mockman module's public face: the sample to-do routes the API playground calls.
export { wireMockman } from './mockman.module.js';
