import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  ACCOUNT_EMAIL_ERRORS,
  ACCOUNT_EMAIL_LIMITS,
  ACCOUNT_EMAIL_MESSAGES,
  AccountEmailMessage,
  ChangeEmailBody,
  ErrorBody,
  ForgotPasswordBody,
  ResetPasswordBody,
  SECURITY,
  SECURITY_ERRORS,
  SECURITY_MESSAGES,
  SecurityMessage,
  UndoEmailBody,
  VerifyEmailBody,
} from '@share-arts/contract';
import { addressKey } from '../../lib/client-address.js';
import { RATE_LIMITS } from '../../lib/rate-limiter.js';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import { sessionClient, type AccountSecurity } from '../sessions/index.js';
import type { AccountEmailService } from './account-email.service.js';

const linkGone = {
  410: Type.Object(ErrorBody.properties, {
    description: 'The link has been used already or has expired: the message says how to get a new one',
  }),
};

/** Email confirmation and "Forgot password?" (issue 24). */
export const accountEmailRoutes: FastifyPluginAsyncTypebox<{
  accountEmail: AccountEmailService;
  security: Pick<AccountSecurity, 'requireConfirmed'>;
  guards: AuthGuards;
}> = async (app, { accountEmail, security, guards }) => {
  const { limiter } = guards;

  app.post(
    '/auth/forgot',
    {
      schema: {
        tags: ['auth'],
        summary: 'Ask for a password reset link',
        description: `Always 202 "${ACCOUNT_EMAIL_MESSAGES.resetRequested}", whether or not an account matches, and before anything about it is looked up: the answer tells nothing. An account whose username or confirmed address is \`login\` is then mailed a link that works once, for ${ACCOUNT_EMAIL_LIMITS.resetLinkMinutes} minutes (at most ${RATE_LIMITS.resetMailsPerAccount.max} mails an hour per account; past that the same answer, and no mail). 429 past ${RATE_LIMITS.forgotPerIp.max} requests from one address in ${RATE_LIMITS.forgotPerIp.windowMs / 60_000} minutes.`,
        body: ForgotPasswordBody,
        response: { 202: AccountEmailMessage, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      await limiter.hit(`forgot:${addressKey(request.ip)}`, RATE_LIMITS.forgotPerIp);
      return reply.code(202).send(await accountEmail.forgot(request.body.login));
    },
  );

  app.post(
    '/auth/reset',
    {
      schema: {
        tags: ['auth'],
        summary: 'Choose a new password with the link from the mail',
        description: `Sets the password, uses the link up and ends every session of the account (every token issued before stops working). The authenticator app and passkeys stay: a sign-in still asks for the second step when it is on. Kept in the security log and mailed. 400 "${ACCOUNT_EMAIL_ERRORS.resetLinkUnknown}" for a token that names no link, or a password the policy refuses; 410 "${ACCOUNT_EMAIL_ERRORS.resetLinkUsed}", "${ACCOUNT_EMAIL_ERRORS.resetLinkExpired}", or when the account's address changed since the link was sent.`,
        body: ResetPasswordBody,
        response: { 200: AccountEmailMessage, ...errorResponses(400, 429), ...linkGone },
      },
    },
    async (request) => {
      await limiter.hit(`mail-link:${addressKey(request.ip)}`, RATE_LIMITS.mailLinksPerIp);
      return accountEmail.reset(request.body.token, request.body.password, sessionClient(request));
    },
  );

  app.post(
    '/auth/verify-email',
    {
      schema: {
        tags: ['auth'],
        summary: 'Confirm an email address with the link from the mail',
        description: `No token needed: the link is the proof. 400 "${ACCOUNT_EMAIL_ERRORS.verifyLinkUnknown}"; 410 when it was used, has expired (after ${ACCOUNT_EMAIL_LIMITS.verifyLinkHours} hours) or confirms an address the account no longer has.`,
        body: VerifyEmailBody,
        response: { 200: AccountEmailMessage, ...errorResponses(400, 429), ...linkGone },
      },
    },
    async (request) => {
      await limiter.hit(`mail-link:${addressKey(request.ip)}`, RATE_LIMITS.mailLinksPerIp);
      return accountEmail.verify(request.body.token);
    },
  );

  app.post(
    '/auth/verify-email/resend',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['auth'],
        summary: 'Mail a new confirmation link to your address',
        description: `202 "${ACCOUNT_EMAIL_MESSAGES.verificationSent}"; 409 "${ACCOUNT_EMAIL_ERRORS.alreadyVerified}"; 429 past ${RATE_LIMITS.verifyMailsPerUser.max} an hour.`,
        security: bearerAuth,
        response: { 202: AccountEmailMessage, ...errorResponses(401, 404, 409, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(await accountEmail.resend(request.userId!)),
  );

  app.post(
    '/account/email',
    {
      preHandler: [guards.requireUser, security.requireConfirmed],
      schema: {
        tags: ['account'],
        summary: 'Change your email address',
        description: `Saves the new address unconfirmed and mails it a confirmation link; the old address, when it was confirmed, is mailed what changed and a link that puts it back (for ${SECURITY.undoEmailDays} days). Kept in the security log. Only a session that signed in or confirmed who it is (POST /api/auth/reauthenticate) in the last ${SECURITY.reauthMinutes} minutes may do this: otherwise 403 "${SECURITY_ERRORS.reauthRequired}". 400 "${SECURITY_ERRORS.sameEmail}".`,
        security: bearerAuth,
        body: ChangeEmailBody,
        response: { 200: SecurityMessage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => accountEmail.changeEmail(request.userId!, request.body.email, sessionClient(request)),
  );

  app.post(
    '/auth/undo-email',
    {
      schema: {
        tags: ['auth'],
        summary: 'Put your old email address back with the link from the mail',
        description: `No token needed: the link mailed to the old address is the proof. Puts that address back, confirmed, and ends every session of the account: "${SECURITY_MESSAGES.emailChangeUndone}" 400 "${SECURITY_ERRORS.undoLinkUnknown}"; 410 when it was used or has expired (after ${SECURITY.undoEmailDays} days).`,
        body: UndoEmailBody,
        response: { 200: SecurityMessage, ...errorResponses(400, 429), ...linkGone },
      },
    },
    async (request) => {
      await limiter.hit(`mail-link:${addressKey(request.ip)}`, RATE_LIMITS.mailLinksPerIp);
      return accountEmail.undoEmail(request.body.token, sessionClient(request));
    },
  );
};
