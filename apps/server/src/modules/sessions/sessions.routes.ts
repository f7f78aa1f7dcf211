import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  ACCOUNT_ERRORS,
  ChangePasswordBody,
  ChangePasswordResponse,
  EndOthersResponse,
  SECURITY,
  SecurityLogResponse,
  SessionParams,
  SESSIONS_LIST_MAX,
  SessionsResponse,
} from '@share-arts/contract';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { AccountSecurity } from './account-security.js';
import { PASSWORD_CHANGE_FAILURES, sessionClient, type SessionsService } from './sessions.service.js';
import { clearSessionCookie } from './session-cookie.js';

const ENDED =
  'Its token is refused from then on (401), everywhere: other requests, POST /api/auth/verify, and its open live socket, which closes.';

/** LOG OUT, the sessions list and ending sessions, and the password change (issue 24). */
export const sessionsRoutes: FastifyPluginAsyncTypebox<{
  sessions: SessionsService;
  security: AccountSecurity;
  guards: AuthGuards;
}> = async (app, { sessions, security, guards }) => {
  app.post(
    '/auth/logout',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['auth'],
        summary: 'Log out',
        description: `Ends the session of the token that asks. ${ENDED}`,
        security: bearerAuth,
        response: { 204: Type.Null({ description: 'Logged out' }), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      await sessions.logout(request.userId!, request.sessionId!);
      clearSessionCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/sessions',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['auth'],
        summary: 'Where you are signed in',
        description: `Your ${SESSIONS_LIST_MAX} most recently used sessions, the newest first: the device described from its user agent, the network it signed in from (coarse: an IPv4 /24, an IPv6 /48; no outside lookups), when it began and was last used (written at most every 5 minutes), and current: true for the one asking.`,
        security: bearerAuth,
        response: { 200: SessionsResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ sessions: await sessions.list(request.userId!, request.sessionId!) }),
  );

  app.delete(
    '/sessions/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['auth'],
        summary: 'End one of your sessions',
        description: `${ENDED} Ending your own current session is a log-out. 404 "${ACCOUNT_ERRORS.sessionNotFound}" for an id that is not one of your sessions (someone else's answers the same as an unknown one).`,
        security: bearerAuth,
        params: SessionParams,
        response: { 204: Type.Null({ description: 'Ended' }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await sessions.end(request.userId!, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/sessions/end-others',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['auth'],
        summary: 'End all your other sessions',
        description: `Ends every session but the one asking; answers how many ended. ${ENDED}`,
        security: bearerAuth,
        response: { 200: EndOthersResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ ended: await sessions.endOthers(request.userId!, request.sessionId!) }),
  );

  app.post(
    '/auth/password',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['auth'],
        summary: 'Change your password',
        description: `Checks currentPassword (401 "${ACCOUNT_ERRORS.wrongCurrentPassword}"; after ${PASSWORD_CHANGE_FAILURES.max} wrong ones in ${PASSWORD_CHANGE_FAILURES.windowMs / 60_000} minutes, 429 until the window ends), sets newPassword (400 for a blank one, one of the most common passwords, or the current one) and ends every other session: the one asking stays signed in. Answers how many sessions ended. The change is kept in the security log and mailed to the account's address; the right current password also confirms who you are for ${SECURITY.reauthMinutes} minutes (see POST /api/auth/reauthenticate).`,
        security: bearerAuth,
        body: ChangePasswordBody,
        response: { 200: ChangePasswordResponse, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const endedSessions = await sessions.changePassword(request.userId!, request.sessionId!, request.body);
      await security.confirmed(request.userId!, request.sessionId!);
      await security.record(request.userId!, 'password-changed', sessionClient(request));
      return { endedSessions };
    },
  );

  app.get(
    '/account/security-log',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['account'],
        summary: 'Your security log',
        description: `The newest ${SECURITY.logMax} changes of what protects your account (password, email address, two-factor sign-in, passkeys), the newest first, with the device and network of the session that made each (empty for a link from a mail). Each is mailed to your address as it happens.`,
        security: bearerAuth,
        response: { 200: SecurityLogResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ events: await security.log(request.userId!) }),
  );
};
