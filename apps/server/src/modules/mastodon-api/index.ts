// The Mastodon client API (issue 45): Mastodon's routes, shapes, paging and errors over our modules' services, so
// that Mastodon's apps and libraries work with Share Arts. A protocol at the edge: no module imports it. Its
// entities (entities/) are what its route files share; docs/mastodon-api.md lists every route and its state.
import type { ServerContext } from '../../context.js';
import type { CommentsModule } from '../comments/index.js';
import type { MediaModule } from '../media/index.js';
import type { PinsModule } from '../pins/index.js';
import type { PostsModule } from '../posts/index.js';
import type { SafetyModule } from '../safety/index.js';
import type { TagsModule } from '../tags/index.js';
import type { UsersModule } from '../users/index.js';
import { optionalScopes, requireScopes } from '../oauth/index.js';
// masto-more's modules (notifications, reports, search's remote resolution, scheduled statuses).
import type { DraftsModule } from '../drafts/index.js';
import type { FederationModule } from '../federation/index.js';
import type { ModerationModule } from '../moderation/index.js';
import type { NotificationsModule } from '../notifications/index.js';
import { MORE_ROUTE_FILES } from './more.routes.js';
import { registerMastodonErrors } from './errors.js';
import { registerMastodonBodies } from './mastodon-api.params.js';
import { createMastodonPresenter } from './mastodon-api.presenter.js';
import type { MastodonDeps, RegisterMastodonRoutes } from './mastodon-api.deps.js';
import { accountsRoutes } from './accounts.routes.js';
import { statusesRoutes } from './statuses.routes.js';
import { timelinesRoutes } from './timelines.routes.js';
import { mediaRoutes } from './media.routes.js';
import { favouritesRoutes } from './favourites.routes.js';
import { pushRoutes } from './push.routes.js';
import { registerMastodonRateLimits } from './rate-limit.js';

export * from './entities/index.js';
export { MastoPageQuery, pageLimit, setLinkHeader, newerThan, cursorOf, MASTO_PAGE } from './paging.js';
export { mastoError, recordNotFound, validationFailed, RECORD_NOT_FOUND } from './errors.js';
export type { MastodonPresenter } from './mastodon-api.presenter.js';

// The route files' types live in mastodon-api.deps.ts (a route file importing index.ts would be a cycle).
export type { MastodonDeps, PreHandler, RegisterMastodonRoutes } from './mastodon-api.deps.js';

/**
 * The route files of the Mastodon API, registered in this order inside one encapsulated scope. Add a line per
 * file (masto-more: notifications, search, tags, filters, reports, markers, streaming, instance).
 * A route file imports its types from ./mastodon-api.deps.js, the entities from ./entities/index.js, paging from
 * ./paging.js and errors from ./errors.js, never from this file: index.ts imports the route files, so importing it
 * back is a cycle that `npm run lint:deps` refuses.
 */
const ROUTE_FILES: RegisterMastodonRoutes[] = [
  // --- core (accounts, statuses, timelines, media, favourites and bookmarks) ---
  accountsRoutes,
  statusesRoutes,
  timelinesRoutes,
  mediaRoutes,
  favouritesRoutes,
  pushRoutes,
  // --- more (notifications, search, tags, filters, reports, markers, streaming, instance): add below ---
  ...MORE_ROUTE_FILES,
];

/**
 * Wires the Mastodon API after the modules whose services it calls. Its routes live in one encapsulated Fastify
 * scope under `/api` (`/api/v1/…`, `/api/v2/…`), whose error and not-found handlers answer Mastodon's
 * `{"error": "…"}`: the rest of the site keeps its own errors.
 */
export async function wireMastodonApi(
  shared: ServerContext<{ publicOrigin: string | undefined }>,
  modules: {
    posts: PostsModule;
    users: UsersModule;
    comments: CommentsModule;
    media: MediaModule;
    safety: SafetyModule;
    pins: PinsModule;
    tags: TagsModule;
    notifications: NotificationsModule;
    moderation: ModerationModule;
    federation: Pick<FederationModule, 'lookup'>;
    drafts: DraftsModule;
    /** Other scope guards than the OAuth module's (tests); by default its requireScopes and optionalScopes. */
    scopes?: Pick<MastodonDeps, 'requireScopes' | 'optionalScopes'>;
  },
): Promise<void> {
  const { app, db, config } = shared;
  const present = createMastodonPresenter({ db, publicOrigin: config.publicOrigin });
  const deps: MastodonDeps = {
    shared,
    posts: modules.posts.posts,
    history: modules.posts.history,
    users: modules.users.users,
    comments: modules.comments.comments,
    media: modules.media.media,
    safety: modules.safety.safety,
    pins: modules.pins.pins,
    tags: modules.tags.tags,
    notifications: modules.notifications.notifications,
    moderation: modules.moderation.moderation,
    federation: modules.federation,
    drafts: modules.drafts.drafts,
    present,
    // The OAuth module's guards (401/403 in Mastodon's words; the web app's own token counts as every scope).
    requireScopes: modules.scopes?.requireScopes ?? requireScopes,
    optionalScopes: modules.scopes?.optionalScopes ?? optionalScopes,
  };
  await app.register(
    async (scope) => {
      // Every Mastodon route is left out of our own OpenAPI document: docs/mastodon-api.md lists them and their
      // state, and Mastodon's documentation their shapes.
      scope.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, hide: true };
      });
      await registerMastodonErrors(scope);
      // Mastodon's rate limits and X-RateLimit-* headers, in this scope only.
      registerMastodonRateLimits(scope, deps);
      // Forms as Rails reads them, and multipart (uploads, update_credentials), in this scope only.
      await registerMastodonBodies(scope);
      for (const register of ROUTE_FILES) await register(scope, deps);
    },
    { prefix: '/api' },
  );
}
