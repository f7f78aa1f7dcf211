import {
  ACCOUNT_DELETION_ERRORS,
  ERRORS,
  RESERVED_USERNAMES,
  LIMITS,
  type SecondFactorNeeded,
  type SignupBody,
  type User,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { badRequest, notFound, refusal, unauthorized, unprocessable } from '../../lib/http-error.js';
import { LIMIT_MESSAGES } from '../../lib/limit-messages.js';
import { hashPassword, verifyPassword } from '../../lib/password.js';
import { passwordProblem } from '../../lib/password-policy.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { createLoginGuard } from './login-guard.js';
import type { TokenService } from '../../lib/tokens.js';
import { suspendedError, type TokenCheck } from '../../plugins/auth.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import {
  byId,
  insertUser,
  selectCredentialsByUsername,
  selectUserWithLists,
  toUser,
  updatePasswordHash,
} from '../users/index.js';
import { insertSession, type SessionClient } from '../sessions/index.js';

export interface AuthDeps {
  db: Db;
  tokens: TokenService;
  /** The API's one token verification (token-check.ts). */
  tokenCheck: TokenCheck;
  passwordHashCost: number;
  /** The people searches' cache: a new account must be found at once. */
  peopleSearches: { clear(): void };
  /** Counts failed logins (see login-guard.ts). */
  limiter: RateLimiter;
  /** ADMIN_USERNAME (issue 23): the account with this name is made admin when it signs up. */
  adminUsername?: string | undefined;
  /** How long a token is valid (JWT_EXPIRES_IN): the user's older sessions are removed at sign-in. */
  sessionLifetimeSeconds: number;
  /** Makes the account admin (the moderation module's roles). */
  makeAdmin?: (userId: string) => Promise<void>;
  /**
   * Two-factor sign-in (issue 24, modules/two-factor): after the right password, the ticket of the second
   * step when the account asks for one (no token then).
   */
  secondFactor?: (userId: string) => Promise<SecondFactorNeeded | undefined>;
  /** A new account (issue 24): its address is mailed a confirmation link (account-email.service.ts). */
  signedUp?: (userId: string) => Promise<unknown> | void;
}

/** `fullname` splits into firstName (first word) and lastName (the rest); firstName/lastName also work. */
export function splitName(body: Pick<SignupBody, 'fullname' | 'firstName' | 'lastName'>) {
  const words = (body.fullname ?? '').trim().split(/\s+/).filter(Boolean);
  const firstName = words.length > 0 ? words[0]! : (body.firstName ?? '').trim();
  const lastName = words.length > 0 ? words.slice(1).join(' ') : (body.lastName ?? '').trim();
  if (!firstName) throw badRequest(ERRORS.nameRequired);
  if (firstName.length > LIMITS.nameMax || lastName.length > LIMITS.nameMax) {
    throw refusal(400, LIMIT_MESSAGES.names, { limit: LIMITS.nameMax });
  }
  return { firstName, lastName };
}

export function createAuthService({
  db,
  tokens,
  tokenCheck,
  passwordHashCost,
  peopleSearches,
  limiter,
  adminUsername,
  makeAdmin,
  signedUp,
  secondFactor,
  sessionLifetimeSeconds,
}: AuthDeps) {
  const guard = createLoginGuard(limiter);
  /**
   * The one place a token is issued (sign-up, log-in, a second factor's sign-in): a new server-side
   * session of the account (issue 24), named by the token's `sid`, with the client that signed in.
   */
  async function session(userId: string, username: string, client: SessionClient) {
    const row = await selectUserWithLists(db, byId(userId), userId);
    if (!row) throw notFound(ERRORS.usernameNotRegistered);
    const sessionId = await insertSession(db, userId, client, sessionLifetimeSeconds);
    return { user: toUser(row, userId), encodedToken: await tokens.sign({ userId, username, sessionId }) };
  }

  return {
    session,

    async signup(body: SignupBody, client: SessionClient): Promise<{ user: User; encodedToken: string }> {
      const { firstName, lastName } = splitName(body);
      if ((RESERVED_USERNAMES as readonly string[]).includes(body.username.toLowerCase())) {
        throw badRequest(`The username "${body.username}" is reserved. Please choose another.`);
      }
      const weak = passwordProblem(body.password);
      if (weak) throw badRequest(weak);
      const passwordHash = await hashPassword(body.password, passwordHashCost);
      try {
        // Every process's people searches must find the new account: the event leaves with the row
        // (NOTIFY is sent on commit), and this process's cache is cleared at once.
        const created = await insertUser(db, {
          username: body.username,
          firstName,
          lastName,
          email: body.email.trim(),
          passwordHash,
        });
        peopleSearches.clear();
        if (adminUsername && makeAdmin && created.username.toLowerCase() === adminUsername.toLowerCase()) {
          await makeAdmin(created.id);
        }
        await signedUp?.(created.id);
        return await session(created.id, created.username, client);
      } catch (error) {
        if (isUniqueViolation(error, 'users_username_lower_key')) throw unprocessable(ERRORS.usernameTaken);
        // A deleted account's name, held back for a while (migration 0021's trigger).
        if (isUniqueViolation(error, 'users_username_held')) throw unprocessable(ACCOUNT_DELETION_ERRORS.usernameHeld);
        throw error;
      }
    },

    /** `client.address` is the client's addressKey: failed attempts are counted per account and address. */
    async login(username: string, password: string, client: SessionClient) {
      const { address } = client;
      const found = await selectCredentialsByUsername(db, username.trim());
      if (!found) throw notFound(ERRORS.usernameNotRegistered);
      await guard.begin(found.id, address);
      const { ok, rehash } = await verifyPassword(password, found.password_hash);
      if (!ok) throw unauthorized(ERRORS.invalidCredentials);
      await guard.succeeded(found.id, address);
      // The right password of a suspended account: told so, and no token (issue 23).
      if (found.suspended) throw suspendedError(found.suspended_until);
      if (rehash) {
        const passwordHash = await hashPassword(password, passwordHashCost);
        await updatePasswordHash(db, found.id, passwordHash);
      }
      const pending = await secondFactor?.(found.id);
      if (pending) return pending;
      return session(found.id, found.username, client);
    },

    /**
     * Signs in an account another factor proved (a passkey, or a password and its second factor): the
     * account must still exist and not be suspended.
     */
    async completeSignIn(username: string, client: SessionClient) {
      const found = await selectCredentialsByUsername(db, username);
      if (!found) throw notFound(ERRORS.usernameNotRegistered);
      if (found.suspended) throw suspendedError(found.suspended_until);
      return session(found.id, found.username, client);
    },

    async verify(encodedToken: string): Promise<User> {
      const verdict = await tokenCheck.check(encodedToken);
      if (verdict.status === 'missing' || verdict.status === 'invalid') throw unauthorized(ERRORS.invalidToken);
      // A token outlives its account: 404, with the message a log-in with an unknown username gets.
      if (verdict.status === 'gone') throw notFound(ERRORS.usernameNotRegistered);
      if (verdict.status === 'suspended') throw suspendedError(verdict.until);
      const { claims } = verdict;
      const row = await selectUserWithLists(db, byId(claims.userId), claims.userId);
      if (!row) throw notFound(ERRORS.usernameNotRegistered);
      return toUser(row, claims.userId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
