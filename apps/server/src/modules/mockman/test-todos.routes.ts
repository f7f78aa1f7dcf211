import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';

const TestTodo = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  title: Type.String(),
  completed: Type.Boolean(),
});
type TestTodo = Static<typeof TestTodo>;

/**
 * The developer console (/mockman) opens on `GET /api/test-todos`, the spec's default request, so its
 * first Send shows a real answer. A fixed list in the shape of the classic todo fixtures (a bare array,
 * as they answer), worded as the first steps of trying this API from the console; nothing is stored.
 */
export const TEST_TODOS: TestTodo[] = [
  { id: 1, title: 'Send GET /api/test-todos (done: you are reading its answer)', completed: true },
  { id: 2, title: 'Check the server with GET /api/health', completed: false },
  {
    id: 3,
    title: 'Log in with POST /api/auth/login and {"username": "mira", "password": "share-arts-guest"}',
    completed: false,
  },
  { id: 4, title: 'Send the encodedToken as the authorization header to GET /api/feed', completed: false },
  { id: 5, title: 'Read every route and its schema at /api/docs', completed: false },
];

export const testTodosRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/test-todos',
    {
      schema: {
        tags: ['system'],
        summary: "A fixed list of sample todos: the developer console's default request",
        response: { 200: Type.Array(TestTodo) },
      },
    },
    async () => TEST_TODOS,
  );
};
