import { ACCOUNT_ERRORS, type SessionInfo } from '@share-arts/contract';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { addressKey } from '../../lib/client-address.js';
import { badRequest, notFound, unauthorized } from '../../lib/http-error.js';
import { hashPassword, normalizePassword, verifyPassword } from '../../lib/password.js';
import { passwordProblem } from '../../lib/password-policy.js';
import { countedAttempt, type RateLimit, type RateLimiter } from '../../lib/rate-limiter.js';
import { isUuid } from '../../lib/ids.js';
import { changePasswordEndingOthers } from '../../actions/password-change.js';
import { forgetHere } from './session-check.js';
import { describeDevice, describePlace } from './device.js';
import { deleteSessions, selectPasswordHash, selectSessions, USER_AGENT_MAX } from './sessions.sql.js';

/** Who signs in: the user agent and the address (an addressKey), kept with the session to describe it. */
export interface SessionClient {
  userAgent: string;
  address: string;
}

/** The client of a request, as a new session keeps it. */
export const sessionClient = (request: FastifyRequest): SessionClient => ({
  userAgent: (request.headers['user-agent'] ?? '').slice(0, USER_AGENT_MAX),
  address: addressKey(request.ip),
});

/** Wrong current passwords of one account before the password change answers 429 for the window. */
export const PASSWORD_CHANGE_FAILURES: RateLimit = { max: 5, windowMs: 15 * 60_000 };

/**
 * Ends sessions of the user: all of them, or all but `except` (the caller's own), or just `sessionId`.
 * Their tokens are refused at once in this process, and in every other when the event arrives (it leaves
 * with the deletion); their live sockets close. Answers how many ended. Password reset (modules/mail) and
 * two-factor changes call it too.
 */
export async function endSessions(
  db: Db,
  userId: string,
  which: { except?: string; sessionId?: string } = {},
): Promise<number> {
  const ended = await deleteSessions(db, userId, which);
  forgetHere(db, userId, which);
  return ended;
}

export function createSessionsService({
  db,
  limiter,
  passwordHashCost,
  sessionLifetimeSeconds,
}: {
  db: Db;
  limiter: RateLimiter;
  passwordHashCost: number;
  /** How long a token is valid (JWT_EXPIRES_IN): an older session has ended. */
  sessionLifetimeSeconds: number;
}) {
  /**
   * 401 `wrong` unless `password` is the account's. Wrong ones are counted per account, before the slow check
   * (25 guesses sent at once check 5 passwords, not 25: issue 38, item 4): past PASSWORD_CHANGE_FAILURES in
   * the window, 429 until it ends. The password change and the confirmation of who you are share the count.
   */
  async function confirmPassword(userId: string, password: string, wrong: string): Promise<void> {
    const attempt = await countedAttempt(limiter, `password-change-failed:${userId}`, PASSWORD_CHANGE_FAILURES);
    const stored = await selectPasswordHash(db, userId);
    if (stored === undefined) throw unauthorized(wrong);
    const { ok } = await verifyPassword(password, stored);
    if (!ok) throw unauthorized(wrong);
    await attempt.passed();
  }

  return {
    confirmPassword,

    /** The user's sessions, the most recently used first; `current` marks the caller's. */
    async list(userId: string, currentId: string): Promise<SessionInfo[]> {
      const rows = await selectSessions(db, userId, sessionLifetimeSeconds);
      return rows.map((row) => ({
        id: row.id,
        ...describeDevice(row.user_agent),
        // An authorized app (issue 45) is named as itself, not as the browser that authorized it.
        ...(row.app_name === null ? {} : { device: row.app_name, deviceType: 'app' }),
        place: describePlace(row.address),
        createdAt: row.created_at,
        lastUsedAt: row.last_used_at,
        current: row.id === currentId,
        ...(row.app_name === null
          ? {}
          : { app: { name: row.app_name, website: row.app_website, scopes: (row.app_scopes ?? '').split(' ') } }),
      }));
    },

    /** Ends one of the user's sessions (their own too: that is a log-out); another's or an unknown id is a 404. */
    async end(userId: string, sessionId: string): Promise<void> {
      if (!isUuid(sessionId) || (await endSessions(db, userId, { sessionId })) === 0) {
        throw notFound(ACCOUNT_ERRORS.sessionNotFound);
      }
    },

    /** LOG OUT: ends the caller's session (one that ended meanwhile is as good). */
    async logout(userId: string, sessionId: string): Promise<void> {
      await endSessions(db, userId, { sessionId });
    },

    /** Ends every session of the user but the caller's. */
    endOthers(userId: string, currentId: string): Promise<number> {
      return endSessions(db, userId, { except: currentId });
    },

    /**
     * Sets a new password after the current one is checked, and ends every other session with it (the
     * caller's stays signed in). Wrong current passwords are counted per account: past
     * PASSWORD_CHANGE_FAILURES in the window, 429 until it ends.
     */
    async changePassword(
      userId: string,
      currentId: string,
      body: { currentPassword: string; newPassword: string },
    ): Promise<number> {
      const weak = passwordProblem(body.newPassword);
      if (weak) throw badRequest(`new${weak.charAt(0).toUpperCase()}${weak.slice(1)}`);
      await confirmPassword(userId, body.currentPassword, ACCOUNT_ERRORS.wrongCurrentPassword);
      if (normalizePassword(body.newPassword) === normalizePassword(body.currentPassword)) {
        throw badRequest(ACCOUNT_ERRORS.samePassword);
      }
      const passwordHash = await hashPassword(body.newPassword, passwordHashCost);
      const ended = await changePasswordEndingOthers(db, userId, passwordHash, currentId);
      forgetHere(db, userId, { except: currentId });
      return ended;
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
