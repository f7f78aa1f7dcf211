import type { ServerContext } from '../../context.js';
import type { PostsModule } from '../posts/index.js';
import { atomRoutes } from './atom.routes.js';
import { createAtomService } from './atom.service.js';

/** The atom module: each artist's Atom feed of their works. */
export async function wireAtom(
  shared: ServerContext<{ publicOrigin: string | undefined }>,
  { posts }: { posts: PostsModule },
) {
  const { app, config, db } = shared;
  const atom = createAtomService({ db, posts: posts.posts });
  await app.register(atomRoutes, { prefix: '/api', atom, publicOrigin: config.publicOrigin });
}
