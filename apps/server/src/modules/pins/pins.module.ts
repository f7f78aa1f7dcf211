import type { ServerContext } from '../../context.js';
import type { PostsModule } from '../posts/index.js';
import { createPinsService } from './pins.service.js';
import { pinsRoutes } from './pins.routes.js';

/** The pins module: an artist's pinned works, shown as the posts module shows posts. */
export async function wirePins(shared: ServerContext, { posts }: { posts: PostsModule }) {
  const { app, db, guards } = shared;
  const pins = createPinsService({ db, posts: posts.posts });
  await app.register(pinsRoutes, { prefix: '/api', pins, guards });
  // The Mastodon API's pin and unpin (issue 45) go through the same service.
  return { pins };
}

export type PinsModule = Awaited<ReturnType<typeof wirePins>>;
