import { ACCOUNT_DELETION_ERRORS } from '@share-arts/contract';
import type { ServerContext } from '../../context.js';
import type { MediaModule } from '../media/index.js';
import { accountDeletionRoutes } from './account-deletion.routes.js';
import { createAccountDeletionService } from './account-deletion.service.js';

/**
 * The account-deletion module (issue 24): deleting one's own account. This process forgets the account and
 * its posts at once (the events reach every process after the commit), and with two-factor sign-in on, the
 * deletion needs a code too.
 */
export async function wireAccountDeletion(
  shared: ServerContext,
  {
    media,
    accounts,
    posts,
    twoFactor,
    federation,
  }: {
    media: MediaModule;
    /** The users module's account check. */
    accounts: { forget(userId: string): void };
    /** The posts module's post cache. */
    posts: { cache: { invalidate(postId: string): void } };
    twoFactor: {
      twoFactor: { verifySecondFactor(userId: string, code: string | undefined, missing: string): Promise<void> };
    };
    /** The federation module: the Delete of the account's actor sent to the servers that follow it (issue 39). */
    federation?: { farewell(userId: string): Promise<{ send(): Promise<void> } | undefined> };
  },
) {
  const { app, db, guards, limiter } = shared;
  const accountDeletion = createAccountDeletionService({
    db,
    media: media.media,
    limiter,
    forgetAccount: accounts.forget,
    forgetPosts: (postIds) => postIds.forEach(posts.cache.invalidate),
    ...(federation ? { farewell: federation.farewell } : {}),
    secondFactor: (userId, code) =>
      twoFactor.twoFactor.verifySecondFactor(userId, code, ACCOUNT_DELETION_ERRORS.secondFactorRequired),
  });
  await app.register(accountDeletionRoutes, { prefix: '/api', accountDeletion, guards });
}
