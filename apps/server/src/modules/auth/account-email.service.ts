import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ACCOUNT_EMAIL_ERRORS, ACCOUNT_EMAIL_LIMITS, ACCOUNT_EMAIL_MESSAGES } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { badRequest, HttpError } from '../../lib/http-error.js';
import { hashPassword } from '../../lib/password.js';
import { passwordProblem } from '../../lib/password-policy.js';
import { RATE_LIMITS, type RateLimiter } from '../../lib/rate-limiter.js';
import { resetMail, verificationMail, type Mailer } from '../mail/index.js';
import { updatePasswordHash } from '../users/index.js';
import {
  claimToken,
  hasLiveToken,
  insertToken,
  markEmailVerified,
  selectMailTarget,
  selectResetTargets,
  selectToken,
  type MailTarget,
  type TokenPurpose,
} from './auth.sql.js';

export interface AccountEmailDeps {
  db: Db;
  mailer: Mailer;
  /** The origin the links in mails start with (PUBLIC_ORIGIN, else http://localhost:PORT). */
  origin: string;
  limiter: RateLimiter;
  passwordHashCost: number;
  /** The clock of links' expiry (config.now: tests move it). */
  now: () => number;
  log: FastifyBaseLogger;
  /** Ends every session of the account (the sessions module): a reset signs out everywhere. */
  endSessions?: (userId: string) => Promise<void>;
}

/** At most this many accounts share one confirmed address and receive a reset link each. */
const ACCOUNTS_PER_ADDRESS = 5;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const gone = (message: string) => new HttpError(410, message);
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Email confirmation and password reset by mail (issue 24). A link's token is 32 random bytes; only its
 * SHA-256 is stored. Mails leave one at a time from a queue, after the request that asked for them has
 * been answered: "Forgot password?" answers the same, at the same speed, whether or not anything is sent.
 */
export function createAccountEmailService({
  db,
  mailer,
  origin,
  limiter,
  passwordHashCost,
  now,
  log,
  endSessions,
}: AccountEmailDeps) {
  let queue: Promise<void> = Promise.resolve();
  /** Runs `job` after the ones before it; a failure is logged, never thrown at a request. */
  function later(what: string, job: () => Promise<void>): void {
    // setImmediate: the job starts once the request that asked for it has been answered.
    queue = queue
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(job)
      .catch((error: unknown) => log.error({ err: error }, `mail: ${what} failed`));
  }

  async function issue(target: MailTarget, purpose: TokenPurpose, lifetimeMs: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const createdAt = new Date(now());
    await insertToken(db, {
      hash: hashOf(token),
      userId: target.id,
      purpose,
      email: target.email,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + lifetimeMs),
    });
    return token;
  }

  async function sendConfirmation(target: MailTarget): Promise<void> {
    const token = await issue(target, 'verify-email', ACCOUNT_EMAIL_LIMITS.verifyLinkHours * 3_600_000);
    const url = `${origin}/verify-email?token=${token}`;
    await mailer.send(verificationMail(target.email, target.username, url));
  }

  async function sendReset(target: MailTarget): Promise<void> {
    // Per account, silently: past the limit the answer is the same and no mail leaves.
    const key = `reset-mail:${target.id}`;
    // Counted first, so that concurrent requests (in any process) cannot all pass a check made before them.
    const sent = await limiter.add(key, RATE_LIMITS.resetMailsPerAccount);
    if (sent.count > RATE_LIMITS.resetMailsPerAccount.max) return;
    const token = await issue(target, 'reset-password', ACCOUNT_EMAIL_LIMITS.resetLinkMinutes * 60_000);
    const url = `${origin}/reset-password?token=${token}`;
    await mailer.send(resetMail(target.email, target.username, url));
  }

  /** The stored link a token names, refused with the sentence that says what to do. */
  async function linkOf(token: string, purpose: TokenPurpose) {
    const errors =
      purpose === 'reset-password'
        ? {
            unknown: ACCOUNT_EMAIL_ERRORS.resetLinkUnknown,
            used: ACCOUNT_EMAIL_ERRORS.resetLinkUsed,
            expired: ACCOUNT_EMAIL_ERRORS.resetLinkExpired,
          }
        : {
            unknown: ACCOUNT_EMAIL_ERRORS.verifyLinkUnknown,
            used: ACCOUNT_EMAIL_ERRORS.verifyLinkUsed,
            expired: ACCOUNT_EMAIL_ERRORS.verifyLinkExpired,
          };
    const hash = hashOf(token.trim());
    const row = TOKEN.test(token.trim()) ? await selectToken(db, hash, purpose, new Date(now())) : undefined;
    if (!row) throw badRequest(errors.unknown);
    if (row.used) throw gone(errors.used);
    if (row.expired) throw gone(errors.expired);
    return { row, hash, errors };
  }

  return {
    /** A new account: its address gets a confirmation link. */
    signedUp(userId: string): void {
      later('confirmation on sign-up', async () => {
        const target = await selectMailTarget(db, userId);
        if (target && !target.verified) await sendConfirmation(target);
      });
    },

    /**
     * A profile edit that sent an address: when it is unconfirmed (a new one) and no live link for it is
     * out, one is mailed. Saving the same unconfirmed address again sends nothing new.
     */
    addressChanged(userId: string): void {
      later('confirmation of a changed address', async () => {
        const target = await selectMailTarget(db, userId);
        if (!target || target.verified) return;
        if (await hasLiveToken(db, userId, 'verify-email', target.email, new Date(now()))) return;
        await sendConfirmation(target);
      });
    },

    async resend(userId: string): Promise<{ message: string }> {
      const target = await selectMailTarget(db, userId);
      if (!target) throw badRequest(ACCOUNT_EMAIL_ERRORS.verifyLinkUnknown);
      if (target.verified) throw new HttpError(409, ACCOUNT_EMAIL_ERRORS.alreadyVerified);
      await limiter.hit(`verify-mail:${userId}`, RATE_LIMITS.verifyMailsPerUser);
      later('confirmation resent', () => sendConfirmation(target));
      return { message: ACCOUNT_EMAIL_MESSAGES.verificationSent };
    },

    async verify(token: string): Promise<{ message: string }> {
      const { row, hash, errors } = await linkOf(token, 'verify-email');
      if (row.current_email !== row.email) throw gone(ACCOUNT_EMAIL_ERRORS.verifyLinkOtherAddress);
      const at = new Date(now());
      const done = await db.transaction(async (tx) => {
        if (!(await claimToken(tx, hash, 'verify-email', at))) return false;
        return markEmailVerified(tx, row.user_id, row.email, at);
      });
      if (!done) throw gone(errors.used);
      return { message: ACCOUNT_EMAIL_MESSAGES.emailVerified };
    },

    /**
     * "Forgot password?": nothing about the account is looked up before the caller has its answer; the
     * lookup and the mail happen afterwards, in the queue.
     */
    forgot(login: string): { message: string } {
      const wanted = login.trim();
      later('password reset request', async () => {
        const targets = await selectResetTargets(db, wanted, ACCOUNTS_PER_ADDRESS);
        for (const target of targets) await sendReset(target);
      });
      return { message: ACCOUNT_EMAIL_MESSAGES.resetRequested };
    },

    async reset(token: string, password: string): Promise<{ message: string }> {
      const { row, hash, errors } = await linkOf(token, 'reset-password');
      // The address changed since: whoever still reads the old mailbox is not the owner any more.
      if (row.current_email !== row.email) throw gone(ACCOUNT_EMAIL_ERRORS.resetLinkOtherAddress);
      const weak = passwordProblem(password);
      if (weak) throw badRequest(weak);
      const passwordHash = await hashPassword(password, passwordHashCost);
      const done = await db.transaction(async (tx) => {
        if (!(await claimToken(tx, hash, 'reset-password', new Date(now())))) return false;
        await updatePasswordHash(tx, row.user_id, passwordHash);
        return true;
      });
      if (!done) throw gone(errors.used);
      await endSessions?.(row.user_id);
      return { message: ACCOUNT_EMAIL_MESSAGES.passwordReset };
    },

    /** Resolves once every mail asked for so far has been sent or has failed (closing, tests). */
    settled: (): Promise<void> => queue,
  };
}

export type AccountEmailService = ReturnType<typeof createAccountEmailService>;
