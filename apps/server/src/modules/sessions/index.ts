// The sessions module's public face (issue 24): server-side sessions, the check of every token's session,
// LOG OUT, the sessions list and the password change, and endSessions for the modules that end them.
export { createSessionCheck, type SessionCheck } from './session-check.js';
export {
  createSessionsService,
  endSessions,
  sessionClient,
  type SessionClient,
  type SessionsService,
} from './sessions.service.js';
export { sessionsRoutes } from './sessions.routes.js';
export { insertSession } from './sessions.sql.js';
export { clearSessionCookie, SESSION_COOKIE, sessionTokenOf, setSessionCookie } from './session-cookie.js';
