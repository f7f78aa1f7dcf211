import type { ServerContext } from '../../context.js';
import type { PostsModule } from '../posts/index.js';
import { benchRoutes } from './bench.routes.js';

/** The bench module: the two reference routes the API benchmark compares against, with BENCH_ROUTES only. */
export async function wireBench(shared: ServerContext<{ benchRoutes: boolean }>, { posts }: { posts: PostsModule }) {
  const { app, config, db } = shared;
  if (config.benchRoutes) await app.register(benchRoutes, { prefix: '/api', db, posts: posts.posts });
}
