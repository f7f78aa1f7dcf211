import type { ServerContext } from '../../context.js';
import type { DomainEvent } from '../../events/events.js';
import { port } from '../../lib/port.js';
import { createSearchCache } from '../../lib/search-cache.js';
import type { MediaModule } from '../media/index.js';
import type { SafetyModule } from '../safety/index.js';
import { bookmarksRoutes } from './bookmarks.routes.js';
import { changesPostSearches, createPostCache, type SearchHit } from './posts.cache.js';
import { postsRoutes } from './posts.routes.js';
import { createPostHistory } from './post-history.js';
import { postHistoryRoutes } from './post-history.routes.js';
import { createPostsService, type RemoteLikeChanged } from './posts.service.js';
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
  // A like of a work from another server is sent there by the federation module, wired later (issue 39).
  const remoteLikeChanged = port<RemoteLikeChanged>('remote like');
  const posts = createPostsService({
    db,
    reads,
    media: media.media,
    cache,
    searches: createSearchCache<SearchHit, DomainEvent>({ bus, changes: changesPostSearches }),
    relations: safety.relations,
    viewerStates,
    remoteLikeChanged: remoteLikeChanged.call,
  });
  await app.register(bookmarksRoutes, { prefix: '/api', posts, guards });
  await app.register(postsRoutes, { prefix: '/api', posts, guards });
  // A work's history (issue 41): its revisions, and the earlier pictures its author sees (read from the storage).
  const history = createPostHistory({ db, storage: media.storage });
  await app.register(postHistoryRoutes, { prefix: '/api', history, guards });
  // The history too: the Mastodon API's GET /api/v1/statuses/{id}/history reads it (issue 45).
  return { posts, cache, remoteLikeChanged, history };
}

export type PostsModule = Awaited<ReturnType<typeof wirePosts>>;
