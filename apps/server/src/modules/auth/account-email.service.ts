import { createHmac, hash } from 'node:crypto';
import {
  ACCOUNT_EMAIL_ERRORS,
  ACCOUNT_EMAIL_LIMITS,
  ACCOUNT_EMAIL_MESSAGES,
  SECURITY,
  SECURITY_ERRORS,
  SECURITY_MESSAGES,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { badRequest, HttpError, notFound } from '../../lib/http-error.js';
import { mailLocale } from '../../lib/i18n.js';
import { hashPassword } from '../../lib/password.js';
import { passwordProblem } from '../../lib/password-policy.js';
import { RATE_LIMITS, type RateLimiter } from '../../lib/rate-limiter.js';
import type { JobQueue } from '../../jobs/queue.js';
import { ACCOUNT_GONE } from '../../plugins/auth.js';
import { emailChangedMail, MAIL_JOB, resetMail, verificationMail, type Mailer } from '../mail/index.js';
import type { AccountSecurity, SessionClient } from '../sessions/index.js';
import { restoreEmail, updateEmail, updatePasswordHash } from '../users/index.js';
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
  /** Mails leave from background jobs (issue 37): after the request, from any process, retried. */
  jobs: JobQueue;
  /** Signs the links a job mails (JWT_SECRET): a retried job mails the same link. */
  linkSecret: string;
  /** The origin the links in mails start with (PUBLIC_ORIGIN, else http://localhost:PORT). */
  origin: string;
  limiter: RateLimiter;
  passwordHashCost: number;
  /** The clock of links' expiry (config.now: tests move it). */
  now: () => number;
  /** Ends every session of the account (the sessions module): a reset signs out everywhere. */
  endSessions?: (userId: string) => Promise<void>;
  /** The security log (the sessions module, issue 38): a reset and an email change are kept and mailed. */
  security?: Pick<AccountSecurity, 'record'>;
}

/** At most this many accounts share one confirmed address and receive a reset link each. */
const ACCOUNTS_PER_ADDRESS = 5;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const gone = (message: string) => new HttpError(410, message);
const hashOf = (token: string) => hash('sha256', token, 'hex');

/** The jobs that send this module's mails. */
const CONFIRM_JOB = 'mail.confirm-address';
const RESET_JOB = 'mail.password-reset';
const EMAIL_CHANGED_JOB = 'mail.email-changed';
/** Why a confirmation is mailed: decides what the job checks before it sends. */
type ConfirmReason = 'sign-up' | 'address-changed' | 'resend';

/**
 * Email confirmation and password reset by mail (issue 24). A link's token is 32 bytes only the server can
 * make (an HMAC of the job, the account and the purpose under JWT_SECRET); only its SHA-256 is stored. Mails
 * leave from background jobs, after the request that asked for them has been answered: "Forgot password?"
 * answers the same, at the same speed, whether or not anything is sent.
 */
export function createAccountEmailService({
  db,
  mailer,
  jobs,
  linkSecret,
  origin,
  limiter,
  passwordHashCost,
  now,
  endSessions,
  security,
}: AccountEmailDeps) {
  const mailHost = new URL(origin).hostname || 'localhost';

  /**
   * The link a job mails to one account: the same in every try of that job, so a retry after a lost
   * completion mails the same link (with the same Message-ID) instead of a second one.
   */
  function linkOfJob(jobId: string, target: MailTarget, purpose: TokenPurpose) {
    const token = createHmac('sha256', linkSecret).update(`${purpose}:${jobId}:${target.id}`).digest('base64url');
    return { token, hash: hashOf(token), messageId: `${jobId}.${target.id}@${mailHost}` };
  }

  async function issue(target: MailTarget, purpose: TokenPurpose, hash: string, lifetimeMs: number): Promise<void> {
    const createdAt = new Date(now());
    await insertToken(db, {
      hash,
      userId: target.id,
      purpose,
      email: target.email,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + lifetimeMs),
    });
  }

  jobs.define<{ userId: string; reason: ConfirmReason }>(
    CONFIRM_JOB,
    async ({ userId, reason }, job) => {
      const target = await selectMailTarget(db, userId);
      if (!target || target.verified) return;
      const link = linkOfJob(job.id, target, 'verify-email');
      // A profile edit that saved the same unconfirmed address again sends nothing new while a link is out.
      if (
        reason === 'address-changed' &&
        (await hasLiveToken(db, userId, 'verify-email', target.email, new Date(now()), link.hash))
      )
        return;
      // The effect is named by the link, not the account: a deleted account leaves no row naming it.
      await job.once(`mail:${link.hash}`, async () => {
        await issue(target, 'verify-email', link.hash, ACCOUNT_EMAIL_LIMITS.verifyLinkHours * 3_600_000);
        const url = `${origin}/verify-email?token=${link.token}`;
        await mailer.send({
          ...verificationMail(mailLocale(target.language), target.email, target.username, url),
          messageId: link.messageId,
        });
      });
    },
    MAIL_JOB,
  );

  jobs.define<{ login: string }>(
    RESET_JOB,
    async ({ login }, job) => {
      const targets = await selectResetTargets(db, login, ACCOUNTS_PER_ADDRESS);
      for (const target of targets) {
        const link = linkOfJob(job.id, target, 'reset-password');
        await job.once(`mail:${link.hash}`, async () => {
          // Per account, silently: past the limit no mail leaves. Counted first, so that concurrent jobs (in
          // any process) cannot all pass a check made before them.
          const sent = await limiter.add(`reset-mail:${target.id}`, RATE_LIMITS.resetMailsPerAccount);
          if (sent.count > RATE_LIMITS.resetMailsPerAccount.max) return;
          await issue(target, 'reset-password', link.hash, ACCOUNT_EMAIL_LIMITS.resetLinkMinutes * 60_000);
          const url = `${origin}/reset-password?token=${link.token}`;
          await mailer.send({
            ...resetMail(mailLocale(target.language), target.email, target.username, url),
            messageId: link.messageId,
          });
        });
      }
    },
    MAIL_JOB,
  );

  // To the old address of an email change, when it was confirmed (issue 38): a link that puts it back. An
  // address never confirmed proved nothing, and its link could hand the account to whoever reads it.
  jobs.define<{ userId: string; oldEmail: string; newEmail: string }>(
    EMAIL_CHANGED_JOB,
    async ({ userId, oldEmail, newEmail }, job) => {
      const account = await selectMailTarget(db, userId);
      if (!account) return;
      const target = { ...account, email: oldEmail };
      const link = linkOfJob(job.id, target, 'undo-email');
      await job.once(`mail:${link.hash}`, async () => {
        await issue(target, 'undo-email', link.hash, SECURITY.undoEmailDays * 86_400_000);
        const url = `${origin}/undo-email?token=${link.token}`;
        const mail = emailChangedMail(
          mailLocale(target.language),
          oldEmail,
          target.username,
          newEmail,
          url,
          SECURITY.undoEmailDays,
        );
        await mailer.send({ ...mail, messageId: link.messageId });
      });
    },
    MAIL_JOB,
  );

  const confirm = (userId: string, reason: ConfirmReason) => jobs.send(CONFIRM_JOB, { userId, reason });

  /** The stored link a token names, refused with the sentence that says what to do. */
  async function linkOf(token: string, purpose: TokenPurpose) {
    const errors = {
      'reset-password': {
        unknown: ACCOUNT_EMAIL_ERRORS.resetLinkUnknown,
        used: ACCOUNT_EMAIL_ERRORS.resetLinkUsed,
        expired: ACCOUNT_EMAIL_ERRORS.resetLinkExpired,
      },
      'verify-email': {
        unknown: ACCOUNT_EMAIL_ERRORS.verifyLinkUnknown,
        used: ACCOUNT_EMAIL_ERRORS.verifyLinkUsed,
        expired: ACCOUNT_EMAIL_ERRORS.verifyLinkExpired,
      },
      'undo-email': {
        unknown: SECURITY_ERRORS.undoLinkUnknown,
        used: SECURITY_ERRORS.undoLinkUsed,
        expired: SECURITY_ERRORS.undoLinkExpired,
      },
    }[purpose];
    const hash = hashOf(token.trim());
    const row = TOKEN.test(token.trim()) ? await selectToken(db, hash, purpose, new Date(now())) : undefined;
    if (!row) throw badRequest(errors.unknown);
    if (row.used) throw gone(errors.used);
    if (row.expired) throw gone(errors.expired);
    return { row, hash, errors };
  }

  return {
    /** A new account: its address gets a confirmation link. */
    signedUp: (userId: string): Promise<unknown> => confirm(userId, 'sign-up'),

    /**
     * A new address (issue 38; the route has checked that the session confirmed who it is lately): saved
     * unconfirmed, mailed a confirmation link; the old address, when it was confirmed, is mailed a link that
     * puts it back. Kept in the security log.
     */
    async changeEmail(userId: string, email: string, client: SessionClient): Promise<{ message: string }> {
      const before = await selectMailTarget(db, userId);
      if (!before) throw notFound(ACCOUNT_GONE);
      const next = email.trim();
      if (next === before.email) throw badRequest(SECURITY_ERRORS.sameEmail);
      await updateEmail(db, userId, next);
      await confirm(userId, 'address-changed');
      if (before.verified) await jobs.send(EMAIL_CHANGED_JOB, { userId, oldEmail: before.email, newEmail: next });
      // The owner's own log: both addresses whole, as the mail to the old one says them.
      await security?.record(userId, 'email-changed', client, { detail: `${before.email} → ${next}`, mail: false });
      return { message: SECURITY_MESSAGES.emailChanged };
    },

    /**
     * The link mailed to the old address of an email change: puts that address back, confirmed, and ends
     * every session of the account (whoever changed it is signed out). Any other undo link goes with it.
     */
    async undoEmail(token: string, client: SessionClient): Promise<{ message: string }> {
      const { row, hash, errors } = await linkOf(token, 'undo-email');
      const at = new Date(now());
      const done = await db.transaction(async (tx) => {
        if (!(await claimToken(tx, hash, 'undo-email', at))) return false;
        await restoreEmail(tx, row.user_id, row.email, at);
        return true;
      });
      if (!done) throw gone(errors.used);
      await endSessions?.(row.user_id);
      await security?.record(row.user_id, 'email-change-undone', client, { detail: row.email });
      return { message: SECURITY_MESSAGES.emailChangeUndone };
    },

    async resend(userId: string): Promise<{ message: string }> {
      const target = await selectMailTarget(db, userId);
      if (!target) throw badRequest(ACCOUNT_EMAIL_ERRORS.verifyLinkUnknown);
      if (target.verified) throw new HttpError(409, ACCOUNT_EMAIL_ERRORS.alreadyVerified);
      await limiter.hit(`verify-mail:${userId}`, RATE_LIMITS.verifyMailsPerUser);
      await confirm(userId, 'resend');
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
    async forgot(login: string): Promise<{ message: string }> {
      await jobs.send(RESET_JOB, { login: login.trim() });
      return { message: ACCOUNT_EMAIL_MESSAGES.resetRequested };
    },

    async reset(token: string, password: string, client?: SessionClient): Promise<{ message: string }> {
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
      await security?.record(row.user_id, 'password-reset', client);
      return { message: ACCOUNT_EMAIL_MESSAGES.passwordReset };
    },
  };
}

export type AccountEmailService = ReturnType<typeof createAccountEmailService>;
