import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CodeBody,
  LoginResponse,
  Passkey,
  PasskeyOptions,
  PasskeyOptionsBody,
  PasskeyParams,
  PasskeyRegisterBody,
  PasskeySignInBody,
  RecoveryCodes,
  SecondFactorBody,
  TotpSetupResponse,
  TWO_FACTOR,
  TWO_FACTOR_ERRORS,
  TwoFactorOff,
  TwoFactorStatus,
} from '@share-arts/contract';
import { addressKey } from '../../lib/client-address.js';
import { RATE_LIMITS } from '../../lib/rate-limiter.js';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import { sessionClient, setSessionCookie } from '../sessions/index.js';
// The one rule for the site's public origin: PUBLIC_ORIGIN, else a plain Host header, else none.
import { originOf } from '../../plugins/static-files.js';
import type { PasskeysService } from './passkeys.service.js';
import type { TwoFactorService } from './two-factor.service.js';

const CODES = `A code is accepted once; ${RATE_LIMITS.secondFactorFailuresPerAccount.max} wrong codes in ${RATE_LIMITS.secondFactorFailuresPerAccount.windowMs / 60_000} minutes answer 429 until the window ends.`;

/** Two-factor sign-in (issue 24): an authenticator app, recovery codes and passkeys. */
export const twoFactorRoutes: FastifyPluginAsyncTypebox<{
  twoFactor: TwoFactorService;
  passkeys: PasskeysService;
  guards: AuthGuards;
  publicOrigin: string | undefined;
}> = async (app, { twoFactor, passkeys, guards, publicOrigin }) => {
  const signedIn = { preHandler: guards.requireUser };
  const perAddress = (ip: string) => guards.limiter.hit(`login:${addressKey(ip)}`, RATE_LIMITS.loginPerIp);

  app.get(
    '/two-factor',
    {
      ...signedIn,
      schema: {
        tags: ['two-factor'],
        summary: 'Your two-factor sign-in',
        description: 'Whether an authenticator app is on, how many recovery codes are left, and your passkeys.',
        security: bearerAuth,
        response: { 200: TwoFactorStatus, ...errorResponses(401) },
      },
    },
    (request) => twoFactor.status(request.userId!),
  );

  app.post(
    '/two-factor/totp/setup',
    {
      ...signedIn,
      compress: false,
      schema: {
        tags: ['two-factor'],
        summary: 'Start setting up an authenticator app',
        description: `A new secret, its otpauth:// URI and QR code. It is shown this once, and takes effect when POST /api/two-factor/totp/confirm gets a first code; starting again replaces a set-up not confirmed. 409 "${TWO_FACTOR_ERRORS.alreadyOn}".`,
        security: bearerAuth,
        response: { 200: TotpSetupResponse, ...errorResponses(401, 409) },
      },
    },
    (request) => twoFactor.setup(request.userId!),
  );

  app.post(
    '/two-factor/totp/confirm',
    {
      ...signedIn,
      compress: false,
      schema: {
        tags: ['two-factor'],
        summary: 'Turn two-factor sign-in on with a first code',
        description: `Answers ${TWO_FACTOR.recoveryCodes} recovery codes, this once (only their hashes are kept). Wrong code: 401 "${TWO_FACTOR_ERRORS.wrongCode}". ${CODES}`,
        security: bearerAuth,
        body: CodeBody,
        response: { 200: RecoveryCodes, ...errorResponses(400, 401, 409, 429) },
      },
    },
    (request) => twoFactor.confirm(request.userId!, request.body.code),
  );

  app.post(
    '/two-factor/totp/disable',
    {
      ...signedIn,
      schema: {
        tags: ['two-factor'],
        summary: 'Turn the authenticator app off',
        description: `Needs a code from the app or a recovery code; the recovery codes go too (passkeys stay). ${CODES}`,
        security: bearerAuth,
        body: CodeBody,
        response: { 200: TwoFactorOff, ...errorResponses(400, 401, 429) },
      },
    },
    (request) => twoFactor.disable(request.userId!, request.body.code),
  );

  app.post(
    '/two-factor/passkeys/options',
    {
      ...signedIn,
      schema: {
        tags: ['two-factor'],
        summary: 'Options to register a passkey',
        description: `For navigator.credentials.create (startRegistration of @simplewebauthn/browser); the challenge is good for ${TWO_FACTOR.challengeMinutes} minutes, once.`,
        security: bearerAuth,
        response: { 200: PasskeyOptions, ...errorResponses(400, 401) },
      },
    },
    (request) => passkeys.registrationOptions(request.userId!, originOf(request, publicOrigin)),
  );

  app.post(
    '/two-factor/passkeys',
    {
      ...signedIn,
      schema: {
        tags: ['two-factor'],
        summary: 'Register a passkey',
        description: `The browser's answer to the options. A passkey signs you in without a password, and is a second step instead of a code when the authenticator app is on. At most ${TWO_FACTOR.passkeysMax}.`,
        security: bearerAuth,
        body: PasskeyRegisterBody,
        response: { 201: Passkey, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const { credential, name } = request.body;
      const passkey = await passkeys.register(request.userId!, credential, name, originOf(request, publicOrigin));
      return reply.code(201).send(passkey);
    },
  );

  app.delete(
    '/two-factor/passkeys/:id',
    {
      ...signedIn,
      schema: {
        tags: ['two-factor'],
        summary: 'Remove a passkey',
        description: `Answers what is left. Not one of yours: 404 "${TWO_FACTOR_ERRORS.passkeyNotFound}".`,
        security: bearerAuth,
        params: PasskeyParams,
        response: { 200: TwoFactorStatus, ...errorResponses(401, 404) },
      },
    },
    (request) => passkeys.remove(request.userId!, request.params.id),
  );

  app.post(
    '/auth/login/second-factor',
    {
      compress: false,
      schema: {
        tags: ['auth'],
        summary: 'Finish a sign-in with a second factor',
        description: `The ticket POST /api/auth/login answered (good for ${TWO_FACTOR.ticketMinutes} minutes, once) with a code from the authenticator app, a recovery code, or a passkey's answer to POST /api/auth/passkey/options {ticket}. Answers what a log-in answers. Expired or used ticket: 401 "${TWO_FACTOR_ERRORS.ticketExpired}"; wrong code: 401. ${CODES}`,
        body: SecondFactorBody,
        response: { 200: LoginResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      await perAddress(request.ip);
      const { ticket, code, passkey } = request.body;
      const signedIn =
        passkey !== undefined
          ? await passkeys.secondFactor(ticket, passkey, originOf(request, publicOrigin), sessionClient(request))
          : await twoFactor.finish(ticket, { code: code ?? '' }, sessionClient(request));
      setSessionCookie(request, reply, signedIn.encodedToken);
      return { encodedToken: signedIn.encodedToken, foundUser: signedIn.user };
    },
  );

  app.post(
    '/auth/passkey/options',
    {
      schema: {
        tags: ['auth'],
        summary: 'Options to sign in with a passkey',
        description: `For navigator.credentials.get (startAuthentication of @simplewebauthn/browser). Without a ticket: any passkey of this site (the sign-in itself); with one: the passkeys of the ticket's account (the second step). Good for ${TWO_FACTOR.challengeMinutes} minutes, once.`,
        body: PasskeyOptionsBody,
        response: { 200: PasskeyOptions, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      await perAddress(request.ip);
      return passkeys.signInOptions(request.body?.ticket, originOf(request, publicOrigin));
    },
  );

  app.post(
    '/auth/passkey',
    {
      compress: false,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a passkey',
        description: `The browser's answer to the options; answers what a log-in answers. A passkey not registered here: 401 "${TWO_FACTOR_ERRORS.passkeyUnknown}"; a used or expired challenge: 401 "${TWO_FACTOR_ERRORS.challengeExpired}".`,
        body: PasskeySignInBody,
        response: { 200: LoginResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      await perAddress(request.ip);
      const signedIn = await passkeys.signIn(
        request.body.credential,
        originOf(request, publicOrigin),
        sessionClient(request),
      );
      setSessionCookie(request, reply, signedIn.encodedToken);
      return { encodedToken: signedIn.encodedToken, foundUser: signedIn.user };
    },
  );
};
