// The auth module's public face: sign-up, log-in and token checks, and their routes.
export { wireAuth, type AuthModule } from './auth.module.js';
export type { AuthService } from './auth.service.js';
export { createTokenCheck } from './token-check.js';
export { createLoginGuard, type LoginGuard } from './login-guard.js';
export type { AccountEmailService } from './account-email.service.js';
