// The two-factor module's public face (issue 24): an authenticator app's codes, recovery codes and passkeys,
// their routes, and the checks other parts call (account deletion: hasSecondFactor, verifySecondFactor).
export { createTwoFactorService, type TwoFactorService } from './two-factor.service.js';
export { createPasskeysService, type PasskeysService } from './passkeys.service.js';
export { twoFactorRoutes } from './two-factor.routes.js';
