import type { ServerContext } from '../../context.js';
import { testTodosRoutes } from './test-todos.routes.js';

/** The mockman module: the sample to-do routes the API playground calls. */
export async function wireMockman(shared: ServerContext) {
  await shared.app.register(testTodosRoutes, { prefix: '/api' });
}
