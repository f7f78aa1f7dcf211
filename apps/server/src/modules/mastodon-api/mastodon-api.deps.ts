// The types every route file of the Mastodon API is handed (issue 45). Route files import them from here, never
// from index.ts: index.ts imports the route files, so an import back would be a cycle (lint:deps refuses it).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import type { CommentsModule } from '../comments/index.js';
import type { MediaModule } from '../media/index.js';
import type { PinsModule } from '../pins/index.js';
import type { PostsModule } from '../posts/index.js';
import type { SafetyModule } from '../safety/index.js';
import type { TagsModule } from '../tags/index.js';
import type { UsersModule } from '../users/index.js';
// masto-more's modules (notifications, reports, search's remote resolution, scheduled statuses).
import type { DraftsModule } from '../drafts/index.js';
import type { FederationModule } from '../federation/index.js';
import type { ModerationModule } from '../moderation/index.js';
import type { NotificationsModule } from '../notifications/index.js';
import type { MastodonPresenter } from './mastodon-api.presenter.js';

/** A route's preHandler. */
export type PreHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * What every route file of the Mastodon API is handed (`registerX(scope, deps)`): the other modules' services
 * (each module's rules apply as on the web app), the presenter (our JSON as Mastodon's), and the scope guards.
 */
export interface MastodonDeps {
  shared: ServerContext<{ publicOrigin: string | undefined }>;
  posts: PostsModule['posts'];
  /** A work's edit history (issue 41): StatusEdit. */
  history: PostsModule['history'];
  users: UsersModule['users'];
  comments: CommentsModule['comments'];
  media: MediaModule['media'];
  safety: SafetyModule['safety'];
  pins: PinsModule['pins'];
  tags: TagsModule['tags'];
  // masto-more's (notifications, reports, search with resolve=true, scheduled statuses):
  notifications: NotificationsModule['notifications'];
  moderation: ModerationModule['moderation'];
  federation: Pick<FederationModule, 'lookup'>;
  drafts: DraftsModule['drafts'];
  present: MastodonPresenter;
  /**
   * preHandlers by OAuth scope, as Mastodon's `doorkeeper_authorize!`: `requireScopes('read', 'read:statuses')`
   * needs a person's token holding one of them (401/403 in Mastodon's words); `optionalScopes(...)` reads
   * signed out without a token. The web app's own token counts as every scope.
   */
  requireScopes(...anyOf: string[]): PreHandler;
  optionalScopes(...anyOf: string[]): PreHandler;
}

/** One route file: it registers its routes on the Mastodon scope (already under `/api`, with Mastodon's errors). */
export type RegisterMastodonRoutes = (scope: FastifyInstance, deps: MastodonDeps) => Promise<void> | void;
