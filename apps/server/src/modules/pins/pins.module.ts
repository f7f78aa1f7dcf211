import type { ServerContext } from '../../context.js';
import type { PostsModule } from '../posts/index.js';
import { createPinsService } from './pins.service.js';
import { pinsRoutes } from './pins.routes.js';

/** The pins module: an artist's pinned works, shown as the posts module shows posts. */
export async function wirePins(shared: ServerContext, { posts }: { posts: PostsModule }) {
  const { app, db, guards } = shared;
  await app.register(pinsRoutes, { prefix: '/api', pins: createPinsService({ db, posts: posts.posts }), guards });
}
