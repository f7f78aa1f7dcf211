// The federation module's public face (issue 39): the fediverse's view of the site, through Fedify. No other
// module imports it or knows ActivityPub's shapes.
export { wireFederation, type FederationLoad, type FederationModule } from './federation.module.js';
