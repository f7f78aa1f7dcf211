import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type onSendHookHandler } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ACCOUNT_DELETION_ERRORS } from '@share-arts/contract';
import websocket from '@fastify/websocket';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { openReplicas, primaryCookie, primaryUntilOf, type ReadRouting } from './db/replicas.js';
import { createTokenService } from './lib/tokens.js';
import { proxyMatcher } from './lib/client-address.js';
import { loggerOptions, RequestLogController } from './lib/logger.js';
import { createRateLimiter } from './lib/rate-limiter.js';
import { createRedisRateLimiter } from './lib/rate-limiter-redis.js';
import { registerAuth } from './plugins/auth.js';
import { registerBodyParsers } from './plugins/body-parsers.js';
import { registerCacheHeaders } from './plugins/cache-headers.js';
import { registerCompression } from './plugins/compression.js';
import { registerConnectionLimits, serverOptions } from './plugins/connections.js';
import { registerDocs } from './plugins/docs.js';
import { registerErrorHandling } from './plugins/errors.js';
import { inlineScriptSources, registerSecurityHeaders } from './plugins/security.js';
import { registerStaticFiles } from './plugins/static-files.js';
import { registerResponseChecks, registerValidation } from './plugins/validation.js';
import {
  accountEmailRoutes,
  authRoutes,
  createAccountEmailService,
  createAuthService,
  createTokenCheck,
} from './modules/auth/index.js';
import { createMailer } from './modules/mail/index.js';
import { healthRoutes } from './modules/health/index.js';
import { testTodosRoutes } from './modules/mockman/index.js';
import { usersRoutes, createUsersService, createAccountCheck, type PeopleMatch } from './modules/users/index.js';
import { createMediaService, createMediaStorage, mediaRoutes, setMediaPublicUrl } from './modules/media/index.js';
import {
  postsRoutes,
  changesPostSearches,
  createPostCache,
  type SearchHit,
  createPostsService,
  createViewerStateCache,
  bookmarksRoutes,
  VIEWER_STATE_MARK_MS,
} from './modules/posts/index.js';
import { commentsRoutes, createCommentsService } from './modules/comments/index.js';
import { searchRoutes } from './modules/search/index.js';
import { createTagsService, tagsRoutes } from './modules/tags/index.js';
import { notificationsRoutes, createNotificationsService } from './modules/notifications/index.js';
import { benchRoutes } from './modules/bench/index.js';
import { createPinsService, pinsRoutes } from './modules/pins/index.js';
import { createRelationsCache, createSafetyService, safetyRoutes } from './modules/safety/index.js';
import { atomRoutes, createAtomService } from './modules/atom/index.js';
import { createModerationService, grantRole, makeAdmin, moderationRoutes } from './modules/moderation/index.js';
import {
  apiReader,
  createPagesService,
  loadPageRenderer,
  PAGE_DATA_ID,
  renderHead,
  renderHome,
  renderRoot,
  robotsRoutes,
  sessionApi,
} from './modules/pages/index.js';
import { createLiveHub, type LiveHub, liveRoutes } from './modules/live/index.js';
import {
  clearSessionCookie,
  createSessionCheck,
  createSessionsService,
  endSessions,
  sessionsRoutes,
  sessionTokenOf,
} from './modules/sessions/index.js';
import { createPasskeysService, createTwoFactorService, twoFactorRoutes } from './modules/two-factor/index.js';
import { createExportService, exportRoutes } from './modules/export/index.js';
import { accountDeletionRoutes, createAccountDeletionService } from './modules/account-deletion/index.js';
import { createEventBus, type EventBus } from './events/bus.js';
import type { DomainEvent } from './events/events.js';
import { createSearchCache } from './lib/search-cache.js';
import { createMetrics, namingRefusals } from './lib/metrics.js';
import { registerMetrics } from './plugins/metrics.js';

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL is not valid: check its percent-encoding.',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long.',
};

declare module 'fastify' {
  interface FastifyInstance {
    apiRoutes: { method: string; url: string; hidden: boolean }[];
    /** Where the hot reads go (DATABASE_REPLICA_URLS, issue 25); tests read its replicas' state. */
    readRouting: ReadRouting;
  }
}

/** Builds the whole app from a config and an open database; it does not listen. */
export async function buildApp(config: Config, database: Database): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config.logLevel, config.logStream),
    logController: new RequestLogController(),
    genReqId: () => randomUUID(),
    // TRUST_PROXY: request.ip is the client X-Forwarded-For names when the peer is a trusted load balancer.
    ...(config.trustProxy ? { trustProxy: proxyMatcher(config.trustProxy) } : {}),
    bodyLimit: 1024 * 1024,
    // Request, header, body-progress and idle timeouts, and answers to what Node's parser refuses.
    ...serverOptions(config.connections),
    // Errors the router raises before any route runs (a malformed or over-long URL): same shape as every
    // other error, and without echoing the URL.
    frameworkErrors: (error, _request, reply) => {
      const message = FRAMEWORK_MESSAGES[error.code] ?? 'The request is not valid.';
      void (reply as unknown as FastifyReply)
        .code(error.statusCode ?? 400)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ errors: [message] }));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  registerConnectionLimits(app, config.connections, proxyMatcher(config.trustProxy ?? []));

  // Every API route, as registered: the docs test checks each one is in the OpenAPI document.
  const apiRoutes: { method: string; url: string; hidden: boolean }[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      apiRoutes.push({
        method,
        url: route.url,
        hidden: Boolean((route.schema as { hide?: boolean } | undefined)?.hide),
      });
    }
  });

  // Before every route, so an upgrade request to any other route is refused rather than left hanging.
  const live: { hub?: LiveHub; bus?: EventBus } = {};
  await app.register(websocket, {
    options: { maxPayload: 16 * 1024 },
    preClose: async () => {
      await live.hub?.close();
      await live.bus?.close();
      app.websocketServer.close();
    },
  });

  registerValidation(app);
  if (config.checkResponses) registerResponseChecks(app);
  registerErrorHandling(app);
  registerBodyParsers(app);
  registerSecurityHeaders(app, {
    mediaOrigin: config.mediaPublicUrl && new URL(config.mediaPublicUrl).origin,
    inlineScripts: inlineScriptSources(config.webDistDir),
  });
  registerCacheHeaders(app);
  await registerCompression(app);
  await registerDocs(app);
  // Operators' metrics (issue 25): GET /api/metrics, and every answer counted by route and status.
  const metrics = createMetrics();
  registerMetrics(app, metrics, { token: config.metricsToken });

  const { db } = database;
  // Read replicas (issue 25): the pages' reads ask `reads.reader(viewer)` for a caught-up replica's db; a
  // person's reads stay on the primary from their write until every replica used has it (db/replicas.ts).
  const reads = await openReplicas(db, config.databaseReplicas?.urls ?? [], {
    maxLagMs: config.databaseReplicas?.maxLagMs ?? 1000,
    log: app.log,
  });
  app.decorate('readRouting', reads);
  app.addHook('onClose', () => reads.close());
  const writing = (request: FastifyRequest) => request.method !== 'GET' && request.method !== 'HEAD';
  app.addHook('onResponse', (request, _reply, next) => {
    if (request.userId && writing(request)) reads.wrote(request.userId);
    next();
  });
  // The mark travels with the person to the other processes and machines (PRIMARY_COOKIE): every
  // successful write's answer carries it, and a request that brings it reads from the primary until then,
  // and its viewer's flags from the database rather than memory (issue 26: the event that tells this
  // process of the write may not be here yet). So it is set with replicas or without.
  // Only the routes that write get the hook: a read pays nothing for it.
  const markMs = Math.max(reads.maxLagMs, VIEWER_STATE_MARK_MS);
  const markWrite: onSendHookHandler = (request, reply, payload, done) => {
    if (writing(request) && reply.statusCode < 400 && request.url.startsWith('/api/')) {
      reply.header('set-cookie', primaryCookie(Date.now() + markMs, markMs, request.protocol === 'https'));
    }
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    if ([route.method].flat().every((method) => method === 'GET' || method === 'HEAD')) return;
    route.onSend = [...[route.onSend ?? []].flat(), markWrite];
  });
  const identified = (request: FastifyRequest, userId: string) => {
    if (writing(request)) reads.wrote(userId);
    const until = primaryUntilOf(request.headers.cookie);
    if (until !== undefined) {
      reads.wrote(userId, until - Date.now());
      viewerStates.wrote(userId, Math.min(until - Date.now(), markMs));
    }
  };
  const tokens = createTokenService(config.jwtSecret, config.jwtExpiresIn);
  // REDIS_URL: every process counts in one Redis (issue 25); else in this process's memory.
  const limiter =
    config.redisUrl && config.rateLimits
      ? await createRedisRateLimiter({
          url: config.redisUrl,
          prefix: config.redisKeyPrefix ?? 'share-arts:',
          ...(config.redisCommandTimeoutMs ? { commandTimeoutMs: config.redisCommandTimeoutMs } : {}),
          enabled: true,
          now: config.now,
          log: app.log,
        })
      : createRateLimiter({ enabled: config.rateLimits, now: config.now });
  app.addHook('onClose', () => limiter.close());
  const bus = await createEventBus(database, {
    onRelayError: (error) => app.log.error({ err: error }, 'the event outbox relay failed; it tries again'),
  });
  // Each 429 a limit answers is counted under the limit's name.
  namingRefusals(limiter);
  // People searches change when someone joins or is renamed.
  const peopleSearches = createSearchCache<PeopleMatch, DomainEvent>({
    bus,
    changes: (event) => event.type === 'user-joined' || event.type === 'author-changed',
  });
  const accounts = createAccountCheck({ db, bus });
  // Each viewer's reactions, bookmarks and follows in memory (issue 26): pages fill their flags without a query.
  const viewerStates = createViewerStateCache({ db, bus });
  // Live sessions, remembered like accounts (issue 24): LOG OUT and the others end a token at once.
  const sessionCheck = createSessionCheck({ db, bus, log: app.log });
  // One token check for HTTP requests, POST /api/auth/verify and the live socket.
  const tokenCheck = createTokenCheck({ tokens, accountStatus: accounts.status, sessionLive: sessionCheck.live });
  // Mail (issue 24): SMTP_URL, or the log; links start with PUBLIC_ORIGIN (else this port on localhost).
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom ?? 'no-reply@localhost', log: app.log });
  const accountEmail = createAccountEmailService({
    db,
    mailer,
    origin: config.publicOrigin ?? `http://localhost:${config.port}`,
    limiter,
    passwordHashCost: config.passwordHashCost,
    now: config.now,
    log: app.log,
    // A password reset ends every session of the account (issue 24).
    endSessions: async (userId) => void (await endSessions(db, userId)),
  });
  app.addHook('onClose', async () => {
    await accountEmail.settled();
    mailer.close();
  });
  // Two-factor sign-in (issue 24): its second step and passkeys sign in through the auth service's one way.
  const twoFactor = createTwoFactorService({
    db,
    jwtSecret: config.jwtSecret,
    limiter,
    now: config.now,
    signIn: (username, client) => auth.completeSignIn(username, client),
  });
  // config.jwtExpiresIn is "<seconds>s": a session lives as long as its token.
  const sessionLifetimeSeconds = Number.parseInt(config.jwtExpiresIn, 10);
  const auth = createAuthService({
    db,
    tokens,
    sessionLifetimeSeconds,
    tokenCheck,
    passwordHashCost: config.passwordHashCost,
    peopleSearches,
    limiter,
    adminUsername: config.adminUsername,
    makeAdmin: (userId) => makeAdmin(db, userId),
    secondFactor: (userId) => twoFactor.ticketFor(userId),
    signedUp: (userId) => {
      // A new account reads itself from the primary at first (a replica may not have it yet).
      reads.wrote(userId);
      accountEmail.signedUp(userId);
    },
  });
  // ADMIN_USERNAME: that account is admin from the start when it exists (else from its sign-up).
  if (config.adminUsername) await grantRole(db, config.adminUsername, 'admin');
  // MEDIA_STORE (issue 25): the pictures' files in the media folder or an S3-compatible bucket, and
  // MEDIA_PUBLIC_URL when a CDN or the bucket serves them (the API's picture URLs point there).
  const mediaStorage = createMediaStorage({ store: config.mediaStore, mediaDir: config.mediaDir }, app.log, config.now);
  setMediaPublicUrl(config.mediaPublicUrl);
  const media = createMediaService({
    db,
    processed: metrics.pictureProcessed,
    storage: mediaStorage,
    log: app.log,
    now: config.now,
  });
  const users = createUsersService({
    db,
    reads,
    media,
    searches: peopleSearches,
    emailSent: accountEmail.addressChanged,
    viewerChanged: (userId) => viewerStates.forget([userId]),
  });
  const guards = registerAuth(app, tokenCheck, limiter, identified);
  const postCache = createPostCache({ bus });
  // Each viewer's blocks and mutes in memory (issue 23): lists of posts filter them without a query.
  const relations = createRelationsCache({ db, bus });
  const posts = createPostsService({
    db,
    reads,
    media,
    cache: postCache,
    searches: createSearchCache<SearchHit, DomainEvent>({ bus, changes: changesPostSearches }),
    relations,
    viewerStates,
  });
  const comments = createCommentsService({ db, reads, cache: postCache });
  const tags = createTagsService({ db, reads, posts, followsChanged: (userId) => viewerStates.forget([userId]) });
  const notifications = createNotificationsService({ db });
  const moderation = createModerationService({ db, posts, cache: postCache, accounts });
  const liveHub = createLiveHub({
    db,
    bus,
    tokenCheck,
    notifications,
    timings: config.live,
    log: app.log,
    accountStatus: accounts.status,
  });
  live.hub = liveHub;
  live.bus = bus;
  metrics.watch({
    pools: () => [...(database.pools?.() ?? []), ...reads.pools()],
    liveSockets: () => liveHub.size,
    processing: media.processingStats,
  });

  await app.register(
    async (api) => {
      // GET /api/ready asks the pictures' storage itself: the folder's write probe, or the bucket (HeadBucket).
      await api.register(healthRoutes, {
        db,
        storageHealth: media.storageHealth,
        storageCheck: media.checkStorage,
        redisReachable: limiter.redisReachable,
      });
      await api.register(testTodosRoutes);
      await api.register(authRoutes, { auth, limiter: guards.limiter });
      await api.register(accountEmailRoutes, { accountEmail, guards });
      await api.register(usersRoutes, { users, guards });
      await api.register(bookmarksRoutes, { posts, guards });
      await api.register(postsRoutes, { posts, guards });
      await api.register(pinsRoutes, { pins: createPinsService({ db, posts }), guards });
      await api.register(safetyRoutes, {
        safety: createSafetyService({ db, relations, followsChanged: viewerStates.forget }),
        guards,
      });
      await api.register(atomRoutes, { atom: createAtomService({ db, posts }), publicOrigin: config.publicOrigin });
      await api.register(commentsRoutes, { comments, posts, guards });
      await api.register(searchRoutes, { users, posts, tags, guards });
      await api.register(tagsRoutes, { tags, guards });
      await api.register(notificationsRoutes, { notifications, guards });
      await api.register(moderationRoutes, { moderation, guards });
      await api.register(sessionsRoutes, {
        sessions: createSessionsService({
          db,
          limiter,
          passwordHashCost: config.passwordHashCost,
          sessionLifetimeSeconds,
        }),
        guards,
      });
      await api.register(twoFactorRoutes, {
        twoFactor,
        passkeys: createPasskeysService({ db, now: config.now, twoFactor, signIn: auth.completeSignIn }),
        guards,
        publicOrigin: config.publicOrigin,
      });
      await api.register(exportRoutes, {
        exports: createExportService({ db, storage: mediaStorage, log: app.log }),
        guards,
      });
      await api.register(accountDeletionRoutes, {
        accountDeletion: createAccountDeletionService({
          db,
          media,
          limiter,
          forgetAccount: accounts.forget,
          forgetPosts: (postIds) => postIds.forEach(postCache.invalidate),
          // With two-factor sign-in on, deleting the account needs a code too (issue 24).
          secondFactor: (userId, code) =>
            twoFactor.verifySecondFactor(userId, code, ACCOUNT_DELETION_ERRORS.secondFactorRequired),
        }),
        guards,
      });
      await api.register(liveRoutes, {
        hub: liveHub,
        unauthenticatedPerAddress: config.connections.liveUnauthenticatedPerAddress,
      });
      if (config.benchRoutes) await api.register(benchRoutes, { db, posts });
      await api.register(mediaRoutes, { media, guards });
    },
    { prefix: '/api' },
  );

  await app.register(robotsRoutes);
  const pages = createPagesService({ db, posts, users });
  // The web build's server render of shared pages (issue 22), when there is one.
  const renderer = await loadPageRenderer(config.webDistDir);
  const readApi = apiReader(app);
  const homeApi = sessionApi(app);
  await registerStaticFiles(app, {
    mediaDir: config.mediaDir,
    storage: mediaStorage,
    webDistDir: config.webDistDir,
    dispositionOf: media.originalDisposition,
    rightsOf: media.fileRights,
    publicOrigin: config.publicOrigin,
    sharedPage: async (pathname, origin, url) => {
      const page = await pages.render(pathname, origin);
      if (!page) return undefined;
      // Drawn on the server as a visitor sees it; its first API answers go into the page for the app.
      const drawn = page.status === 200 ? await renderRoot(renderer, url, readApi, app.log) : undefined;
      if (drawn) page.head.data = { id: PAGE_DATA_ID, json: drawn.data };
      return { status: page.status, head: renderHead(page.head), root: drawn?.root, styles: drawn?.styles };
    },
    // A signed-in viewer's Home, for the session the document request's cookie carries (issue 22).
    homePage: async (request, reply) => {
      const token = sessionTokenOf(request.headers.cookie);
      if (!token) return undefined;
      const home = await renderHome(renderer, request.url, token, homeApi, app.log);
      if (home.kind === 'ended') clearSessionCookie(request, reply);
      if (home.kind !== 'drawn') return { private: true };
      const { root, styles, data } = home.drawn;
      return { private: true, page: { head: renderHead(pages.homeHead(token, data)), root, styles } };
    },
  });
  return app;
}
