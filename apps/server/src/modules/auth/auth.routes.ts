import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ERRORS,
  LoginBody,
  LoginResponse,
  SignupBody,
  SignupResponse,
  VerifyBody,
  VerifyResponse,
} from '@share-arts/contract';
import { errorResponses } from '../../lib/route-schema.js';
import type { AuthService } from './auth.service.js';
import { RATE_LIMITS, type RateLimiter } from '../../lib/rate-limiter.js';

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
        description: `fullname splits into firstName (first word) and lastName (the rest); firstName and lastName may be sent instead. Usernames are unique regardless of case: 422 "${ERRORS.usernameTaken}".`,
        body: SignupBody,
        response: { 201: SignupResponse, ...errorResponses(400, 422, 429) },
      },
    },
    async (request, reply) => {
      limiter.hit(`signup:${request.ip}`, RATE_LIMITS.signupPerIp);
      const { user, encodedToken } = await auth.signup(request.body);
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
        description: `404 "${ERRORS.usernameNotRegistered}" for an unknown username; 401 "${ERRORS.invalidCredentials}" for a wrong password.`,
        body: LoginBody,
        response: { 200: LoginResponse, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => {
      limiter.hit(`login:${request.ip}`, RATE_LIMITS.loginPerIp);
      limiter.hit(`login:${request.body.username.trim().toLowerCase()}`, RATE_LIMITS.loginPerAccount);
      const { user, encodedToken } = await auth.login(request.body.username, request.body.password);
      return { encodedToken, foundUser: user };
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
