// The two-factor module's public face (issue 24): an authenticator app's codes, recovery codes and passkeys,
// their routes, and the checks other parts call (account deletion: hasSecondFactor, verifySecondFactor).
export { wireTwoFactor, type TwoFactorModule } from './two-factor.module.js';
export type { TwoFactorService } from './two-factor.service.js';
export type { PasskeysService } from './passkeys.service.js';
