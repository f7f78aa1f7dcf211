import { ACCOUNT_DELETION, ACCOUNT_DELETION_ERRORS, type DeleteAccountResponse } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { deleteAccountRows } from '../../actions/account-deletion.js';
import { badRequest, notFound, unauthorized } from '../../lib/http-error.js';
import { verifyPassword } from '../../lib/password.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { createLoginGuard } from '../auth/index.js';
import type { MediaService } from '../media/index.js';
import { ACCOUNT_GONE } from '../../plugins/auth.js';
import { holdUsername, selectAccountCredentials } from './account-deletion.sql.js';

/**
 * The second factor of an account (two-factor sign-in, modules/two-factor): resolves when the account has
 * none on or `code` passes it (a code passes once), throws the HttpError to answer otherwise (a missing or
 * wrong code, too many codes).
 */
export type SecondFactorCheck = (userId: string, code: string | undefined) => Promise<void>;

export interface AccountDeletionDeps {
  db: Db;
  /** Removes the deleted pictures' files once the rows are gone. */
  media: Pick<MediaService, 'removeFiles'>;
  /** Counts wrong passwords with the log-in's failures (login-guard.ts): one budget of guesses per account. */
  limiter: RateLimiter;
  /** Two-factor sign-in's check, when the server has it. */
  secondFactor?: SecondFactorCheck | undefined;
  /**
   * Forgets the account in this process's view of accounts at once (the users module's account check): the
   * `account-deleted` event tells every process, but only once PostgreSQL delivers it, after the commit.
   */
  forgetAccount?: (userId: string) => void;
  /** Forgets these posts in this process's post cache at once (the events reach every process after the commit). */
  forgetPosts?: (postIds: string[]) => void;
  /**
   * The fediverse's goodbye (issue 39): reads, before the rows go, what the Delete of the account's actor needs (its
   * keys, its remote followers); its `send` queues the Delete once the deletion committed.
   */
  farewell?: ((userId: string) => Promise<{ send(): Promise<void> } | undefined>) | undefined;
}

export function createAccountDeletionService({
  db,
  media,
  limiter,
  secondFactor,
  forgetAccount,
  forgetPosts,
  farewell,
}: AccountDeletionDeps) {
  const guard = createLoginGuard(limiter);

  return {
    /**
     * Deletes the signed-in account once its password (and second factor, when on) confirm it: everything
     * it owns in one transaction, then its pictures' files. `address` is the client's addressKey.
     */
    async deleteAccount(
      userId: string,
      body: { password: string; secondFactor?: string | undefined },
      address: string,
    ): Promise<DeleteAccountResponse> {
      if (!body.password) throw badRequest(ACCOUNT_DELETION_ERRORS.passwordRequired);
      const account = await selectAccountCredentials(db, userId);
      if (!account) throw notFound(ACCOUNT_GONE);
      await guard.begin(userId, address);
      const { ok } = await verifyPassword(body.password, account.password_hash);
      if (!ok) throw unauthorized(ACCOUNT_DELETION_ERRORS.wrongPassword);
      await guard.succeeded(userId, address);
      await secondFactor?.(userId, body.secondFactor || undefined);

      // Read while the account's keys and remote followers are there; sent only if the deletion commits.
      const goodbye = await farewell?.(userId);
      const deleted = await db.transaction(async (tx) => {
        const rows = await deleteAccountRows(tx, userId);
        if (!rows.found) return undefined;
        const heldUntil = await holdUsername(tx, account.username, ACCOUNT_DELETION.heldUsernameDays);
        return { heldUntil, media: rows.media, posts: rows.posts };
      });
      if (!deleted) throw notFound(ACCOUNT_GONE);
      forgetAccount?.(userId);
      forgetPosts?.(deleted.posts);
      await goodbye?.send();
      // After the commit: a file that cannot be removed now is logged, and swept later (media.sweeper).
      await media.removeFiles(
        deleted.media.map((row) => ({ originalFile: row.original_file, variants: row.variants })),
      );
      return { deleted: true, heldUntil: deleted.heldUntil };
    },
  };
}

export type AccountDeletionService = ReturnType<typeof createAccountDeletionService>;
