import type { ServerContext } from '../../context.js';
import type { PostsModule } from '../posts/index.js';
import { createTagsService } from './tags.service.js';
import { tagsRoutes } from './tags.routes.js';

/** The tags module: a tag's count and posts, following tags, and `#` suggestions. */
export async function wireTags(
  shared: ServerContext,
  {
    posts,
    viewerStates,
  }: {
    posts: PostsModule;
    /** Each viewer's remembered flags (issue 26): their followed tags changed their Home. */
    viewerStates: { forget(userIds: readonly string[]): void };
  },
) {
  const { app, db, guards, reads } = shared;
  const tags = createTagsService({
    db,
    reads,
    posts: posts.posts,
    followsChanged: (userId) => viewerStates.forget([userId]),
  });
  await app.register(tagsRoutes, { prefix: '/api', tags, guards });
  return { tags };
}

export type TagsModule = Awaited<ReturnType<typeof wireTags>>;
