import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/** The OpenAPI document, generated from the route schemas, and its reference page. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Share Arts API',
        version: '1.0.0',
        description:
          'The HTTP API of Share Arts. Errors always answer `{ "errors": ["message"] }`. ' +
          'Send the token from login or signup in the `authorization` header, raw or as `Bearer <token>`.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
      tags: [
        { name: 'auth', description: 'Sign up, log in, verify a token' },
        { name: 'users', description: 'Profiles and follows' },
        { name: 'posts', description: 'Posts, the feed, likes' },
        { name: 'comments', description: 'Comments and their votes' },
        { name: 'bookmarks', description: 'Saved posts' },
        { name: 'series', description: "An artist's own works in order (issue 41): series, their works, follows" },
        { name: 'drafts', description: 'Drafts and scheduled posts (issue 41): private to their author' },
        { name: 'search', description: 'Search people and posts' },
        { name: 'notifications', description: 'Likes, comments, upvotes and follows of your work' },
        { name: 'media', description: 'Picture uploads' },
        { name: 'system', description: 'Health' },
      ],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: false });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
