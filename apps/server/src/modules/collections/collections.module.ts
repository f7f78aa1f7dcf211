import type { ServerContext } from '../../context.js';
import type { PostsModule } from '../posts/index.js';
import { collectionsRoutes } from './collections.routes.js';
import { createCollectionsService } from './collections.service.js';

/** The collections module (issue 41): works by anyone gathered by anyone, shown as the posts module shows posts. */
export async function wireCollections(shared: ServerContext, { posts }: { posts: PostsModule }) {
  const { app, db, guards } = shared;
  const collections = createCollectionsService({ db, posts: posts.posts });
  await app.register(collectionsRoutes, { prefix: '/api', collections, guards });
  return { collections };
}

export type CollectionsModule = Awaited<ReturnType<typeof wireCollections>>;
