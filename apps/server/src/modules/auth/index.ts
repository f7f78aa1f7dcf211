// The auth module's public face: sign-up, log-in and token checks, and their routes.
export { createAuthService, type AuthService } from './auth.service.js';
export { authRoutes } from './auth.routes.js';
export { createTokenCheck } from './token-check.js';
export { createLoginGuard, type LoginGuard } from './login-guard.js';
export { createAccountEmailService, type AccountEmailService } from './account-email.service.js';
export { accountEmailRoutes } from './account-email.routes.js';
