import type { ServerContext } from '../../context.js';
import type { DomainEvent } from '../../events/events.js';
import { createSearchCache } from '../../lib/search-cache.js';
import type { MediaModule } from '../media/index.js';
import type { SafetyModule } from '../safety/index.js';
import { bookmarksRoutes } from './bookmarks.routes.js';
import { changesPostSearches, createPostCache, type SearchHit } from './posts.cache.js';
import { postsRoutes } from './posts.routes.js';
import { createPostsService } from './posts.service.js';
import type { ViewerStateCache } from './viewer-state.js';

/**
 * The posts module: posts, reactions and bookmarks, and the post cache that the comments, moderation and
 * account deletion also keep right. (Each viewer's flags, createViewerStateCache, are app.ts's: the auth
 * guards read a write's mark into them, and the users, safety and tags modules forget them.)
 */
export async function wirePosts(
  shared: ServerContext,
  { media, safety, viewerStates }: { media: MediaModule; safety: SafetyModule; viewerStates: ViewerStateCache },
) {
  const { app, bus, db, guards, reads } = shared;
  const cache = createPostCache({ bus });
  const posts = createPostsService({
    db,
    reads,
    media: media.media,
    cache,
    searches: createSearchCache<SearchHit, DomainEvent>({ bus, changes: changesPostSearches }),
    relations: safety.relations,
    viewerStates,
  });
  await app.register(bookmarksRoutes, { prefix: '/api', posts, guards });
  await app.register(postsRoutes, { prefix: '/api', posts, guards });
  return { posts, cache };
}

export type PostsModule = Awaited<ReturnType<typeof wirePosts>>;
