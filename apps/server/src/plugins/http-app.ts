import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import { proxyMatcher } from '../lib/client-address.js';
import { loggerOptions, RequestLogController, type LogDestination, type LogLevel } from '../lib/logger.js';
import { createMetrics, type Metrics } from '../lib/metrics.js';
import { registerBodyParsers } from './body-parsers.js';
import { registerCacheHeaders } from './cache-headers.js';
import { registerCompression } from './compression.js';
import { registerConnectionLimits, serverOptions, type ConnectionLimits } from './connections.js';
import { registerDocs } from './docs.js';
import { registerErrorHandling } from './errors.js';
import { registerErrorTranslation } from './translate-errors.js';
import { registerMetrics } from './metrics.js';
import { LazySchemas } from './lazy-schemas.js';
import { inlineScriptSources, registerSecurityHeaders } from './security.js';
import { registerResponseChecks, registerValidation } from './validation.js';

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL is not valid: check its percent-encoding.',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long.',
};

declare module 'fastify' {
  interface FastifyInstance {
    apiRoutes: { method: string; url: string; hidden: boolean }[];
  }
}

/** The settings the HTTP server reads (the Config's). */
export interface HttpSettings {
  logLevel: LogLevel;
  logStream?: LogDestination;
  trustProxy?: string[] | undefined;
  connections: ConnectionLimits;
  checkResponses: boolean;
  mediaPublicUrl?: string | undefined;
  webDistDir: string;
  metricsToken?: string | undefined;
}

export interface HttpApp {
  app: FastifyInstance;
  metrics: Metrics;
  /** What stops when the server begins to close, before the sockets' server (ServerContext.beforeClose). */
  beforeClose(stop: () => Promise<void>): void;
}

/**
 * The HTTP server and what every route has, in the order Fastify needs them: the logger, timeouts and
 * connection caps, the list of API routes, the WebSocket server (before every route), validation, errors,
 * body parsers, security and cache headers, compression, the OpenAPI document and the metrics. No route of a
 * module yet: app.ts wires those, and the static files last.
 */
export async function createHttpApp(settings: HttpSettings): Promise<HttpApp> {
  // Route schemas compiled on first use, not at ready() (lazy-schemas.ts): serializers here, validators below.
  const schemas = new LazySchemas();
  const app = Fastify({
    schemaController: { compilersFactory: { buildSerializer: schemas.serializers } },
    logger: loggerOptions(settings.logLevel, settings.logStream),
    logController: new RequestLogController(),
    genReqId: () => randomUUID(),
    // TRUST_PROXY: request.ip is the client X-Forwarded-For names when the peer is a trusted load balancer.
    ...(settings.trustProxy ? { trustProxy: proxyMatcher(settings.trustProxy) } : {}),
    bodyLimit: 1024 * 1024,
    // Request, header, body-progress and idle timeouts, and answers to what Node's parser refuses.
    ...serverOptions(settings.connections),
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
  registerConnectionLimits(app, settings.connections, proxyMatcher(settings.trustProxy ?? []));

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
        // Read when asked: a scope's own onRoute hook, which runs after this one, may hide its routes (the Mastodon API).
        get hidden() {
          return Boolean((route.schema as { hide?: boolean } | undefined)?.hide);
        },
      });
    }
  });

  // Before every route, so an upgrade request to any other route is refused rather than left hanging.
  const stops: (() => Promise<void>)[] = [];
  await app.register(websocket, {
    options: { maxPayload: 16 * 1024 },
    preClose: async () => {
      for (const stop of stops.toReversed()) await stop();
      app.websocketServer.close();
    },
  });

  schemas.attach(app);
  registerValidation(app, schemas);
  if (settings.checkResponses) registerResponseChecks(app);
  registerErrorHandling(app);
  // Its messages in the reader's language (issue 43).
  registerErrorTranslation(app);
  registerBodyParsers(app);
  registerSecurityHeaders(app, {
    mediaOrigin: settings.mediaPublicUrl && new URL(settings.mediaPublicUrl).origin,
    inlineScripts: inlineScriptSources(settings.webDistDir),
  });
  registerCacheHeaders(app);
  await registerCompression(app);
  await registerDocs(app);
  // Operators' metrics (issue 25): GET /api/metrics, and every answer counted by route and status.
  const metrics = createMetrics();
  registerMetrics(app, metrics, { token: settings.metricsToken });

  return { app, metrics, beforeClose: (stop) => void stops.push(stop) };
}
