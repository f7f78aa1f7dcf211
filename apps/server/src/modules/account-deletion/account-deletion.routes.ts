import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ACCOUNT_DELETION,
  ACCOUNT_DELETION_ERRORS,
  DeleteAccountBody,
  DeleteAccountResponse,
} from '@share-arts/contract';
import { addressKey } from '../../lib/client-address.js';
import { RATE_LIMITS } from '../../lib/rate-limiter.js';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { AccountDeletionService } from './account-deletion.service.js';

/** Deleting one's own account (issue 24). */
export const accountDeletionRoutes: FastifyPluginAsyncTypebox<{
  accountDeletion: AccountDeletionService;
  guards: AuthGuards;
}> = async (app, { accountDeletion, guards }) => {
  app.post(
    '/account/delete',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['account'],
        summary: 'Delete your account',
        description:
          'Confirmed with your password (and, when two-factor sign-in is on, `secondFactor`). Everything the account ' +
          'owns goes at once, in one transaction: its posts with their pictures and files, comments, likes and ' +
          'dislikes, comment votes, bookmarks, follows both ways, followed tags, pins, notifications to and from it, ' +
          'blocks, mutes and muted words, the reports it made and those about it, its sessions and the uploads it ' +
          "has not posted; every count it was part of on others' posts, comments and profiles is counted again. " +
          'Moderators keep their audit log. The username is held back from new sign-ups for ' +
          `${ACCOUNT_DELETION.heldUsernameDays} days (sign-up answers 422 "${ACCOUNT_DELETION_ERRORS.usernameHeld}"). ` +
          'Its tokens answer 404 afterwards. Empty password: 400; wrong password: 401 ' +
          `"${ACCOUNT_DELETION_ERRORS.wrongPassword}"; wrong passwords count with failed log-ins ` +
          `(429 past ${RATE_LIMITS.loginFailuresPerAccount.max} in ${RATE_LIMITS.loginFailuresPerAccount.windowMs / 60_000} minutes).`,
        security: bearerAuth,
        body: DeleteAccountBody,
        response: { 200: DeleteAccountResponse, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    (request) => accountDeletion.deleteAccount(request.userId!, request.body, addressKey(request.ip)),
  );
};
