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
  ReauthenticateBody,
  ReauthenticateResponse,
  RecoveryCodes,
  SecondFactorBody,
  SECURITY,
  SECURITY_ERRORS,
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
import {
  PASSWORD_CHANGE_FAILURES,
  sessionClient,
  setSessionCookie,
  type AccountSecurity,
  type SessionsService,
} from '../sessions/index.js';
import { badRequest } from '../../lib/http-error.js';
// The one rule for the site's public origin: PUBLIC_ORIGIN, else a plain Host header, else none.
import { originOf } from '../../plugins/static-files.js';
import type { PasskeysService } from './passkeys.service.js';
import type { TwoFactorService } from './two-factor.service.js';

const CONFIRMED = `Only a session that signed in or confirmed who it is (POST /api/auth/reauthenticate) in the last ${SECURITY.reauthMinutes} minutes may do this: otherwise 403 "${SECURITY_ERRORS.reauthRequired}".`;
const LOGGED = "Kept in the security log and mailed to the account's address.";
const CODES = `A code is accepted once; ${RATE_LIMITS.secondFactorFailuresPerAccount.max} wrong codes in ${RATE_LIMITS.secondFactorFailuresPerAccount.windowMs / 60_000} minutes answer 429 until the window ends.`;

/** Two-factor sign-in (issue 24): an authenticator app, recovery codes and passkeys. */
export const twoFactorRoutes: FastifyPluginAsyncTypebox<{
  twoFactor: TwoFactorService;
  passkeys: PasskeysService;
  sessions: SessionsService;
  security: AccountSecurity;
  guards: AuthGuards;
  publicOrigin: string | undefined;
}> = async (app, { twoFactor, passkeys, sessions, security, guards, publicOrigin }) => {
  const signedIn = { preHandler: guards.requireUser };
  // Changes of what protects the account (issue 38): the session must have confirmed who it is lately.
  const confirmed = { preHandler: [guards.requireUser, security.requireConfirmed] };
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
      ...confirmed,
      compress: false,
      schema: {
        tags: ['two-factor'],
        summary: 'Start setting up an authenticator app',
        description: `A new secret, its otpauth:// URI and QR code. It is shown this once, and takes effect when POST /api/two-factor/totp/confirm gets a first code; starting again replaces a set-up not confirmed. 409 "${TWO_FACTOR_ERRORS.alreadyOn}". ${CONFIRMED}`,
        security: bearerAuth,
        response: { 200: TotpSetupResponse, ...errorResponses(401, 403, 409) },
      },
    },
    (request) => twoFactor.setup(request.userId!),
  );

  app.post(
    '/two-factor/totp/confirm',
    {
      ...confirmed,
      compress: false,
      schema: {
        tags: ['two-factor'],
        summary: 'Turn two-factor sign-in on with a first code',
        description: `Answers ${TWO_FACTOR.recoveryCodes} recovery codes, this once (only their hashes are kept). Wrong code: 401 "${TWO_FACTOR_ERRORS.wrongCode}". ${CODES} ${CONFIRMED} ${LOGGED}`,
        security: bearerAuth,
        body: CodeBody,
        response: { 200: RecoveryCodes, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      const codes = await twoFactor.confirm(request.userId!, request.body.code);
      await security.record(request.userId!, 'two-factor-on', sessionClient(request));
      return codes;
    },
  );

  app.post(
    '/two-factor/totp/disable',
    {
      ...signedIn,
      schema: {
        tags: ['two-factor'],
        summary: 'Turn the authenticator app off',
        description: `Needs a code from the app or a recovery code (the code is the confirmation of who you are); the recovery codes go too (passkeys stay). ${CODES} ${LOGGED}`,
        security: bearerAuth,
        body: CodeBody,
        response: { 200: TwoFactorOff, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const off = await twoFactor.disable(request.userId!, request.body.code);
      await security.record(request.userId!, 'two-factor-off', sessionClient(request));
      return off;
    },
  );

  app.post(
    '/two-factor/passkeys/options',
    {
      ...confirmed,
      schema: {
        tags: ['two-factor'],
        summary: 'Options to register a passkey',
        description: `For navigator.credentials.create (startRegistration of @simplewebauthn/browser); the challenge is good for ${TWO_FACTOR.challengeMinutes} minutes, once. ${CONFIRMED}`,
        security: bearerAuth,
        response: { 200: PasskeyOptions, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => passkeys.registrationOptions(request.userId!, originOf(request, publicOrigin)),
  );

  app.post(
    '/two-factor/passkeys',
    {
      ...confirmed,
      schema: {
        tags: ['two-factor'],
        summary: 'Register a passkey',
        description: `The browser's answer to the options. A passkey signs you in without a password, and is a second step instead of a code when the authenticator app is on. At most ${TWO_FACTOR.passkeysMax}. ${CONFIRMED} ${LOGGED}`,
        security: bearerAuth,
        body: PasskeyRegisterBody,
        response: { 201: Passkey, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { credential, name } = request.body;
      const passkey = await passkeys.register(request.userId!, credential, name, originOf(request, publicOrigin));
      await security.record(request.userId!, 'passkey-added', sessionClient(request), { detail: passkey.name });
      return reply.code(201).send(passkey);
    },
  );

  app.delete(
    '/two-factor/passkeys/:id',
    {
      ...confirmed,
      schema: {
        tags: ['two-factor'],
        summary: 'Remove a passkey',
        description: `Answers what is left. Not one of yours: 404 "${TWO_FACTOR_ERRORS.passkeyNotFound}". ${CONFIRMED} ${LOGGED}`,
        security: bearerAuth,
        params: PasskeyParams,
        response: { 200: TwoFactorStatus, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const name = await passkeys.remove(request.userId!, request.params.id);
      await security.record(request.userId!, 'passkey-removed', sessionClient(request), { detail: name });
      return twoFactor.status(request.userId!);
    },
  );

  app.post(
    '/auth/reauthenticate',
    {
      ...signedIn,
      schema: {
        tags: ['auth'],
        summary: 'Confirm it is you',
        description: `With one of: your password (wrong ones count with the password change's: 429 past ${PASSWORD_CHANGE_FAILURES.max} in ${PASSWORD_CHANGE_FAILURES.windowMs / 60_000} minutes), a code from your authenticator app or a recovery code (only when it is on; ${RATE_LIMITS.secondFactorFailuresPerAccount.max} wrong codes in ${RATE_LIMITS.secondFactorFailuresPerAccount.windowMs / 60_000} minutes answer 429), or a passkey's answer to POST /api/auth/reauthenticate/passkey-options (checked by the device: a PIN, a fingerprint). For the next ${SECURITY.reauthMinutes} minutes this session may change your email address, two-factor sign-in and passkeys (a fresh sign-in may too). Answers until when.`,
        security: bearerAuth,
        body: ReauthenticateBody,
        response: { 200: ReauthenticateResponse, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const { password, code, passkey } = request.body;
      const userId = request.userId!;
      if ([password, code, passkey].filter((proof) => proof !== undefined).length !== 1) {
        throw badRequest(SECURITY_ERRORS.reauthProofRequired);
      }
      if (password !== undefined) await sessions.confirmPassword(userId, password, SECURITY_ERRORS.wrongPassword);
      else if (code !== undefined) await twoFactor.confirmWithCode(userId, code);
      else await passkeys.confirm(userId, passkey!, originOf(request, publicOrigin));
      return security.confirmed(userId, request.sessionId!);
    },
  );

  app.post(
    '/auth/reauthenticate/passkey-options',
    {
      ...signedIn,
      schema: {
        tags: ['auth'],
        summary: 'Options to confirm it is you with a passkey',
        description: `For navigator.credentials.get (startAuthentication of @simplewebauthn/browser): one of your passkeys, with the device's own check. Good for ${TWO_FACTOR.challengeMinutes} minutes, once.`,
        security: bearerAuth,
        response: { 200: PasskeyOptions, ...errorResponses(400, 401) },
      },
    },
    (request) => passkeys.confirmOptions(request.userId!, originOf(request, publicOrigin)),
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
