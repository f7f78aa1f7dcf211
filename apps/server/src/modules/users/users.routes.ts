import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EditUserBody, UserResponse } from '@share-arts/contract';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { UsersService } from './users.service.js';

export const usersRoutes: FastifyPluginAsyncTypebox<{ users: UsersService; guards: AuthGuards }> = async (
  app,
  { users, guards },
) => {
  app.post(
    '/users/edit',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['users'],
        summary: 'Edit your profile',
        description:
          'Only firstName, lastName, email, bio, link (http or https) and userPhoto change; any other field in userData is ignored.',
        security: bearerAuth,
        body: EditUserBody,
        response: { 201: UserResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const user = await users.editProfile(request.userId!, request.body.userData);
      return reply.code(201).send({ user });
    },
  );
};
