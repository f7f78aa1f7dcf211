// The sessions module's public face (issue 24): server-side sessions, the check of every token's session,
// LOG OUT, the sessions list and the password change, and endSessions for the modules that end them.
export { sessionLifetimeOf, wireSessions, type SessionsModule } from './sessions.module.js';
export type { AccountSecurity } from './account-security.js';
export { createSessionCheck, type SessionCheck } from './session-check.js';
export {
  endSessions,
  PASSWORD_CHANGE_FAILURES,
  sessionClient,
  type SessionClient,
  type SessionsService,
} from './sessions.service.js';
export { insertSession } from './sessions.sql.js';
export { clearSessionCookie, SESSION_COOKIE, sessionTokenOf, setSessionCookie } from './session-cookie.js';
