import type { ServerContext } from '../../context.js';
import type { PostsModule } from '../posts/index.js';
import type { TagsModule } from '../tags/index.js';
import type { UsersModule } from '../users/index.js';
import { searchRoutes } from './search.routes.js';

/** The search module: one route over people, posts and tags. */
export async function wireSearch(
  shared: ServerContext,
  { users, posts, tags }: { users: UsersModule; posts: PostsModule; tags: TagsModule },
) {
  const { app, guards } = shared;
  await app.register(searchRoutes, {
    prefix: '/api',
    users: users.users,
    posts: posts.posts,
    tags: tags.tags,
    guards,
  });
}
