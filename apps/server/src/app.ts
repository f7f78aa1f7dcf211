import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { ServerContext } from './context.js';
import type { Database } from './db/client.js';
import { createEventBus } from './events/bus.js';
import { createJobQueue, type JobQueue } from './jobs/queue.js';
import { keepStatistics } from './jobs/statistics.js';
import { createTokenService } from './lib/tokens.js';
import { registerAuth } from './plugins/auth.js';
import { createHttpApp } from './plugins/http-app.js';
import { openRateLimiter } from './plugins/rate-limits.js';
import { registerReadRouting } from './plugins/read-routing.js';
import { registerStaticFiles } from './plugins/static-files.js';
import { wireAccountDeletion } from './modules/account-deletion/index.js';
import { wireAtom } from './modules/atom/index.js';
import { createTokenCheck, wireAuth } from './modules/auth/index.js';
import { wireBench } from './modules/bench/index.js';
import { wireComments } from './modules/comments/index.js';
import { wireCommissions } from './modules/commissions/index.js';
import { wireDrafts } from './modules/drafts/index.js';
import { wireExport } from './modules/export/index.js';
import { wireFederation } from './modules/federation/index.js';
import { wireHealth } from './modules/health/index.js';
import { wireImports } from './modules/imports/index.js';
import { wireInsights } from './modules/insights/index.js';
import { wireLive } from './modules/live/index.js';
import { wireInquiries } from './modules/inquiries/index.js';
import { wireMail } from './modules/mail/index.js';
import { wireMastodonApi } from './modules/mastodon-api/index.js';
import { wireMedia } from './modules/media/index.js';
import { wireMockman } from './modules/mockman/index.js';
import { wireModeration } from './modules/moderation/index.js';
import { wireNotifications } from './modules/notifications/index.js';
import { createOAuthTokenLookup, wireOAuth } from './modules/oauth/index.js';
import { wirePages } from './modules/pages/index.js';
import { wirePins } from './modules/pins/index.js';
import { wirePush } from './modules/push/index.js';
import { createViewerStateCache, VIEWER_STATE_MARK_MS, wirePosts } from './modules/posts/index.js';
import { wireSafety } from './modules/safety/index.js';
import { wireSearch } from './modules/search/index.js';
import { wireSeries } from './modules/series/index.js';
import { wireCollections } from './modules/collections/index.js';
import { createSessionCheck, wireSessions } from './modules/sessions/index.js';
import { wireTags } from './modules/tags/index.js';
import { wireTwoFactor } from './modules/two-factor/index.js';
import { createAccountCheck, wireUsers } from './modules/users/index.js';

/**
 * Builds the whole app from a config and an open database; it does not listen. First the HTTP server and
 * the few things every module shares (the ServerContext), then each module, after the modules it is given:
 * it makes its services, registers its routes, and returns what the modules after it use. The static
 * files come last.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** The background jobs (issue 37): tests wait for them to work, and see what they did. */
    jobs: JobQueue;
  }
}

export async function buildApp(config: Config, database: Database): Promise<FastifyInstance> {
  const { app, metrics, beforeClose } = await createHttpApp(config);
  const { db } = database;
  const routing = await registerReadRouting(app, db, {
    urls: config.databaseReplicas?.urls ?? [],
    maxLagMs: config.databaseReplicas?.maxLagMs ?? 1000,
    markMs: VIEWER_STATE_MARK_MS,
  });
  const { reads } = routing;
  metrics.watch({ pools: () => [...(database.pools?.() ?? []), ...reads.pools()] });
  const tokens = createTokenService(config.jwtSecret, config.jwtExpiresIn);
  const limiter = await openRateLimiter(app, config);
  const bus = await createEventBus(database, {
    onRelayError: (error) => app.log.error({ err: error }, 'the event outbox relay failed; it tries again'),
  });
  beforeClose(() => bus.close());
  // Background jobs (issue 37): the modules define their kinds as they are wired; the queue starts working
  // once the app is ready, and stops first when it closes (its running jobs get 10 s; the rest wait in the
  // database for another process or the next start).
  const jobs = createJobQueue(database, {
    onError: (error) => app.log.error({ err: error }, 'the job queue failed; it tries again'),
    onJobFailed: ({ kind, id, attempt, error }) =>
      app.log.warn({ err: error, job: { kind, id, attempt } }, `job ${kind} failed (try ${attempt + 1})`),
  });
  app.decorate('jobs', jobs);
  app.addHook('onReady', async () => jobs.start());
  // The embedded database's planner statistics, which nothing else gathers there (jobs/statistics.ts).
  keepStatistics(database, jobs);
  metrics.watch({ jobs: jobs.counts });

  // Who is asking, answered from memory by views the bus's events keep right: every module's routes are
  // guarded with them, so they are made here, from the users, sessions, posts and auth modules.
  // The account exists and is not suspended (issue 23).
  const accounts = createAccountCheck({ db, bus });
  // Each viewer's reactions, bookmarks and follows in memory (issue 26): pages fill their flags without a query.
  const viewerStates = createViewerStateCache({ db, bus });
  // Live sessions, remembered like accounts (issue 24): LOG OUT and the others end a token at once.
  const sessionCheck = createSessionCheck({ db, bus, log: app.log });
  // One token check for HTTP requests, POST /api/auth/verify and the live socket.
  // … and an app's OAuth access token (issue 45): the session it names, with its scopes.
  const tokenCheck = createTokenCheck({
    tokens,
    accountStatus: accounts.status,
    sessionLive: sessionCheck.live,
    appToken: createOAuthTokenLookup({ db }),
  });
  const guards = registerAuth(app, tokenCheck, limiter, routing.identified(viewerStates));

  const shared: ServerContext<Config> = {
    app,
    config,
    database,
    db,
    reads,
    bus,
    log: app.log,
    limiter,
    tokens,
    tokenCheck,
    guards,
    jobs,
    metrics,
    beforeClose,
  };
  // The modules, each after those it is given (their arrows: SERVER_MODULE_DEPENDENCIES, .dependency-cruiser.cjs).
  const media = await wireMedia(shared);
  const mail = await wireMail(shared);
  const sessions = await wireSessions(shared, { mail });
  const safety = await wireSafety(shared, { viewerStates });
  // Open for commissions (issue 42): below users and posts, which read its badge and filters.
  await wireCommissions(shared);
  const users = await wireUsers(shared, { media, viewerStates });
  const auth = await wireAuth(shared, { mail, sessions, users });
  const twoFactor = await wireTwoFactor(shared, { auth, sessions });
  // OAuth 2 as Mastodon does it (issue 45): apps register, are authorized, and hold a session each.
  await wireOAuth(shared);
  const posts = await wirePosts(shared, { media, safety, viewerStates });
  const comments = await wireComments(shared, { posts });
  const pins = await wirePins(shared, { posts });
  await wireAtom(shared, { posts });
  const series = await wireSeries(shared, { posts });
  const collections = await wireCollections(shared, { posts });
  // Inquiries (issue 42): requests to artists, their threads, and the new one's mail.
  await wireInquiries(shared, { mail });
  const drafts = await wireDrafts(shared, { media, posts, series });
  const federation = await wireFederation(shared, {
    posts,
    media,
    remoteBlockChanged: safety.remoteBlockChanged,
    remoteFollowId: users.remoteFollowId,
    remoteFollowChanged: users.remoteFollowChanged,
    security: sessions.security,
  });
  const tags = await wireTags(shared, { posts, viewerStates });
  await wireSearch(shared, { users, posts, tags });
  const notifications = await wireNotifications(shared);
  const moderation = await wireModeration(shared, { posts, accounts, auth, media });
  // The Mastodon client API (issue 45): Mastodon's routes over the services of the modules above.
  await wireMastodonApi(shared, {
    posts,
    users,
    comments,
    media,
    safety,
    pins,
    tags,
    notifications,
    moderation,
    federation,
    drafts,
  });
  // Insights (issue 42): the views beacon and an artist's own counts.
  await wireInsights(shared);
  await wireExport(shared, { media });
  await wireImports(shared, { media });
  await wireAccountDeletion(shared, { media, accounts, posts, twoFactor, federation });
  const live = await wireLive(shared, { notifications, accounts });
  // Web Push (issue 44): notifications pushed to devices with no tab open, after notifications, sessions and live.
  await wirePush(shared, { online: live.online });
  await wireHealth(shared, { media });
  await wireBench(shared, { posts });
  await wireMockman(shared);
  const pages = await wirePages(shared, { posts, users, series, collections });

  // Registered last, so it runs first when the server closes: no job runs on a closed mailer or database.
  app.addHook('onClose', () => jobs.stop());

  // Last: the pictures' files (from the folder, or streamed from the bucket) and the web app, with the
  // shared pages and Home the pages module draws.
  await registerStaticFiles(app, {
    mediaDir: config.mediaDir,
    storage: media.storage,
    webDistDir: config.webDistDir,
    dispositionOf: media.media.originalDisposition,
    rightsOf: media.media.fileRights,
    publicOrigin: config.publicOrigin,
    ...pages,
  });
  return app;
}
