import type { ServerContext } from '../../context.js';
import type { Port } from '../../lib/port.js';
import type { MediaModule } from '../media/index.js';
import type { PostsModule } from '../posts/index.js';
import type { AccountCheck } from '../users/index.js';
import { createModerationService } from './moderation.service.js';
import { moderationRoutes } from './moderation.routes.js';
import { grantRole, makeAdmin } from './roles.js';

/**
 * The moderation module (issue 23): reports, the queue, the actions and the audit log, and the roles:
 * ADMIN_USERNAME's account is admin from the start when it exists, else from its sign-up (the auth
 * module's port).
 */
export async function wireModeration(
  shared: ServerContext<{ adminUsername?: string | undefined }>,
  {
    posts,
    accounts,
    auth,
    media,
  }: {
    posts: PostsModule;
    /** A removed post's picture files: forgotten at once here, their URLs logged for a CDN's purge. */
    media: MediaModule;
    /** The account check (a suspension forgets the account at once). */
    accounts: AccountCheck;
    auth: { makeAdmin: Port<(userId: string) => Promise<void>> };
  },
) {
  const { app, config, db, guards, jobs, log } = shared;
  auth.makeAdmin.connect((userId) => makeAdmin(db, userId));
  if (config.adminUsername) await grantRole(db, config.adminUsername, 'admin');
  const moderation = createModerationService({
    db,
    posts: posts.posts,
    cache: posts.cache,
    accounts,
    media: media.media,
    log,
  });
  await app.register(moderationRoutes, { prefix: '/api', moderation, guards, jobs });
  // Its service, for the Mastodon client API's reports (issue 45).
  return { moderation };
}

export type ModerationModule = Awaited<ReturnType<typeof wireModeration>>;
