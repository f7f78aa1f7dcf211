import {
  TWO_FACTOR,
  TWO_FACTOR_ERRORS,
  formatDate,
  type LoginResponse,
  type Passkey,
  type SecondFactorNeeded,
  type TwoFactorStatus,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import type { SessionClient } from '../sessions/index.js';
import { badRequest, HttpError, unauthorized } from '../../lib/http-error.js';
import { RATE_LIMITS, countedAttempt, type RateLimiter } from '../../lib/rate-limiter.js';
import {
  countUnusedRecoveryCodes,
  disableTotp,
  enableTotp,
  insertTicket,
  selectPasskeys,
  selectTicketUser,
  selectTwoFactor,
  selectUsername,
  takeRecoveryCode,
  takeStep,
  takeTicket,
  upsertPendingSecret,
  type PasskeyRow,
} from './two-factor.sql.js';
import { cleanCode, createSecretBox, newRecoveryCode, newTotpSecret, randomToken, sha256, totpStep } from './totp.js';

export interface TwoFactorDeps {
  db: Db;
  /** The key of the authenticators' secrets is derived from it (totp.ts). */
  jwtSecret: string;
  /** Counts wrong codes per account. */
  limiter: RateLimiter;
  now: () => number;
  /** Issues the token of an account whose identity is proved: the auth module's one way to sign in. */
  signIn: (
    username: string,
    client: SessionClient,
  ) => Promise<{ user: LoginResponse['foundUser']; encodedToken: string }>;
}

export const toPasskey = (row: PasskeyRow): Passkey => ({
  _id: row.id,
  name: row.name,
  createdAt: formatDate(row.createdAt),
  lastUsedAt: row.lastUsedAt ? formatDate(row.lastUsedAt) : null,
});

const conflict = (message: string) => new HttpError(409, message);

/**
 * Two-factor sign-in (issue 24) with an authenticator app: its set-up, recovery codes, the ticket a right
 * password gets, and the check other parts call before something only the owner may do (deleting the account).
 * A code is accepted once: the account remembers the last time-step it took; recovery codes are single-use.
 */
export function createTwoFactorService({ db, jwtSecret, limiter, now, signIn }: TwoFactorDeps) {
  const box = createSecretBox(jwtSecret);
  const date = () => new Date(now());

  /** Whether the code is right for the account now, taking it (never accepted again) when it is. */
  async function takeCode(userId: string, code: string, allowRecovery: boolean): Promise<boolean> {
    const cleaned = cleanCode(code);
    if (/^\d{6}$/.test(cleaned)) {
      const row = await selectTwoFactor(db, userId);
      const secret = row && box.open(row.totpSecret);
      const step = secret === undefined ? undefined : totpStep(secret, cleaned, now());
      return step !== undefined && (await takeStep(db, userId, step));
    }
    if (!allowRecovery || !/^[a-z2-7]{10}$/.test(cleaned)) return false;
    return takeRecoveryCode(db, userId, sha256(cleaned));
  }

  /** Checks a code against the account's limit of wrong codes: 401 when wrong, 429 past the limit. */
  async function checkCode(userId: string, code: string, allowRecovery = true): Promise<void> {
    if (!code.trim()) throw badRequest(TWO_FACTOR_ERRORS.codeRequired);
    const attempt = await countedAttempt(
      limiter,
      `second-factor:${userId}`,
      RATE_LIMITS.secondFactorFailuresPerAccount,
    );
    if (!(await takeCode(userId, code, allowRecovery))) throw unauthorized(TWO_FACTOR_ERRORS.wrongCode);
    await attempt.passed();
  }

  async function hasSecondFactor(userId: string): Promise<boolean> {
    return (await selectTwoFactor(db, userId))?.totpEnabled === true;
  }

  return {
    hasSecondFactor,

    /**
     * For an action only the owner may take (account deletion): a code from the app or a recovery code,
     * taken when right; 400 with `missing` when none is sent, 401 when wrong, 429 after too many. Accounts
     * without two-factor sign-in pass.
     */
    async verifySecondFactor(
      userId: string,
      code: string | undefined,
      missing: string = TWO_FACTOR_ERRORS.codeRequired,
    ): Promise<void> {
      if (!(await hasSecondFactor(userId))) return;
      if (!code?.trim()) throw badRequest(missing);
      await checkCode(userId, code);
    },

    /** Confirms who you are with a code from the app or a recovery code (issue 38): 400 when the app is off. */
    async confirmWithCode(userId: string, code: string): Promise<void> {
      if (!(await hasSecondFactor(userId))) throw badRequest(TWO_FACTOR_ERRORS.notOn);
      await checkCode(userId, code);
    },

    async status(userId: string): Promise<TwoFactorStatus> {
      const [totp, recoveryCodesLeft, keys] = await Promise.all([
        hasSecondFactor(userId),
        countUnusedRecoveryCodes(db, userId),
        selectPasskeys(db, userId),
      ]);
      return { totp, recoveryCodesLeft: totp ? recoveryCodesLeft : 0, passkeys: keys.map(toPasskey) };
    },

    /** A new secret, kept until a first code confirms it (a new set-up replaces one not confirmed). */
    async setup(userId: string) {
      const username = await selectUsername(db, userId);
      const fresh = await newTotpSecret(username ?? 'account');
      if (!(await upsertPendingSecret(db, userId, box.seal(fresh.secret)))) throw conflict(TWO_FACTOR_ERRORS.alreadyOn);
      return fresh;
    },

    /** Turns the authenticator on with its first code, and answers the recovery codes, this once. */
    async confirm(userId: string, code: string): Promise<{ recoveryCodes: string[] }> {
      const row = await selectTwoFactor(db, userId);
      if (!row) throw badRequest(TWO_FACTOR_ERRORS.notSetUp);
      if (row.totpEnabled) throw conflict(TWO_FACTOR_ERRORS.alreadyOn);
      await checkCode(userId, code, false);
      const recoveryCodes = Array.from({ length: TWO_FACTOR.recoveryCodes }, newRecoveryCode);
      await enableTotp(
        db,
        userId,
        recoveryCodes.map((recovery) => sha256(cleanCode(recovery))),
      );
      return { recoveryCodes };
    },

    async disable(userId: string, code: string): Promise<{ totp: false }> {
      if (!(await hasSecondFactor(userId))) throw badRequest(TWO_FACTOR_ERRORS.notOn);
      await checkCode(userId, code);
      await disableTotp(db, userId);
      return { totp: false };
    },

    /** After the right password: a ticket for the second step when the account asks for one. */
    async ticketFor(userId: string): Promise<SecondFactorNeeded | undefined> {
      if (!(await hasSecondFactor(userId))) return undefined;
      const ticket = randomToken();
      const expiresAt = new Date(now() + TWO_FACTOR.ticketMinutes * 60_000);
      await insertTicket(db, userId, sha256(ticket), expiresAt, date());
      const keys = await selectPasskeys(db, userId);
      return { secondFactorRequired: true, ticket, methods: keys.length > 0 ? ['totp', 'passkey'] : ['totp'] };
    },

    /** The account of a ticket still good: 401 otherwise. The ticket stays until the sign-in finishes. */
    async ticketUser(ticket: string): Promise<string> {
      const userId = await selectTicketUser(db, sha256(ticket), date());
      if (!userId) throw unauthorized(TWO_FACTOR_ERRORS.ticketExpired);
      return userId;
    },

    /**
     * The second step with a code: the ticket is taken once the code is right, and the sign-in finishes as a
     * log-in does. `proved` is for a passkey, checked by the caller (the passkeys service).
     */
    async finish(
      ticket: string,
      proof: { code: string } | { proved: (userId: string) => Promise<void> },
      client: SessionClient,
    ) {
      if ('code' in proof && !proof.code.trim()) throw badRequest(TWO_FACTOR_ERRORS.codeRequired);
      const userId = await this.ticketUser(ticket);
      if ('code' in proof) await checkCode(userId, proof.code);
      else await proof.proved(userId);
      if (!(await takeTicket(db, sha256(ticket)))) throw unauthorized(TWO_FACTOR_ERRORS.ticketExpired);
      const username = await selectUsername(db, userId);
      if (!username) throw unauthorized(TWO_FACTOR_ERRORS.ticketExpired);
      return signIn(username, client);
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
