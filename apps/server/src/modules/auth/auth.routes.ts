import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ERRORS,
  LoginAnswer,
  LoginBody,
  SignupBody,
  SignupResponse,
  VerifyBody,
  VerifyResponse,
} from '@share-arts/contract';
import { errorResponses } from '../../lib/route-schema.js';
import type { AuthService } from './auth.service.js';
import { RATE_LIMITS, type RateLimiter } from '../../lib/rate-limiter.js';
import { addressKey } from '../../lib/client-address.js';
import { sessionClient, setSessionCookie } from '../sessions/index.js';

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService; limiter: RateLimiter }> = async (
  app,
  { auth, limiter },
) => {
  app.post(
    '/auth/signup',
    {
      compress: false,
      schema: {
        tags: ['auth'],
        summary: 'Create an account',
        description: `fullname splits into firstName (first word) and lastName (the rest); firstName and lastName may be sent instead. Usernames are unique regardless of case: 422 "${ERRORS.usernameTaken}". A blank password or one of the 49,000 most common ones is a 400; passwords are compared in Unicode NFC.`,
        body: SignupBody,
        response: { 201: SignupResponse, ...errorResponses(400, 422, 429) },
      },
    },
    async (request, reply) => {
      await limiter.hit(`signup:${addressKey(request.ip)}`, RATE_LIMITS.signupPerIp);
      const { user, encodedToken } = await auth.signup(request.body, sessionClient(request));
      setSessionCookie(request, reply, encodedToken);
      return reply.code(201).send({ encodedToken, createdUser: user });
    },
  );

  app.post(
    '/auth/login',
    {
      compress: false,
      schema: {
        tags: ['auth'],
        summary: 'Log in',
        description: `404 "${ERRORS.usernameNotRegistered}" for an unknown username; 401 "${ERRORS.invalidCredentials}" for a wrong password; 429 once this address has failed for this account and the account has had ${RATE_LIMITS.loginFailuresPerAccount.max} failed attempts in ${RATE_LIMITS.loginFailuresPerAccount.windowMs / 60_000} minutes (other addresses may still try), or ${RATE_LIMITS.loginFailuresPerAccountHard.max} (then only addresses that signed in to it before may). With two-factor sign-in on, the right password answers { secondFactorRequired: true, ticket, methods } instead of a token: finish with POST /api/auth/login/second-factor. Usernames are ASCII letters, digits, _ and .: anything else is a 400.`,
        body: LoginBody,
        response: { 200: LoginAnswer, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const client = sessionClient(request);
      await limiter.hit(`login:${client.address}`, RATE_LIMITS.loginPerIp);
      const signedIn = await auth.login(request.body.username, request.body.password, client);
      // Two-factor sign-in on (issue 24): no token yet, a ticket for POST /api/auth/login/second-factor.
      if ('secondFactorRequired' in signedIn) return signedIn;
      setSessionCookie(request, reply, signedIn.encodedToken);
      return { encodedToken: signedIn.encodedToken, foundUser: signedIn.user };
    },
  );

  app.post(
    '/auth/verify',
    {
      schema: {
        tags: ['auth'],
        summary: 'Verify a token and get its user',
        description: `401 "${ERRORS.invalidToken}" for a forged, tampered or expired token; 404 when its user no longer exists.`,
        body: VerifyBody,
        response: { 200: VerifyResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({ user: await auth.verify(request.body.encodedToken) }),
  );
};
