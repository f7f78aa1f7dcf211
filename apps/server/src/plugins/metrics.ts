import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refusingLimit, type Metrics } from '../lib/metrics.js';

/** Forwarding headers a proxy adds: a request carrying one came from further away than its peer. */
const FORWARDED = ['x-forwarded-for', 'forwarded', 'x-real-ip'];
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Whether `request` may read the metrics: with the METRICS_TOKEN as `Authorization: Bearer <token>`, or
 * from this machine itself (a loopback peer, with no forwarding header: a proxy on the same machine
 * connects from loopback on behalf of anyone, and says so in X-Forwarded-For).
 */
function mayScrape(request: FastifyRequest, token: Buffer | undefined): boolean {
  const header = request.headers.authorization;
  // Digests of equal length, so the comparison takes the same time whatever was sent.
  if (token && header?.startsWith('Bearer ')) {
    if (timingSafeEqual(hash('sha256', header.slice(7), 'buffer'), token)) return true;
  }
  const peer = request.socket.remoteAddress ?? '';
  return LOOPBACK.test(peer) && FORWARDED.every((name) => request.headers[name] === undefined);
}

/**
 * Counts every answer by route pattern and status, each 429 by the limit that refused it, and serves
 * `GET /api/metrics`. Anyone else asking gets the 404 of an unknown route, which says nothing of the
 * metrics. A scrape is not logged at info level (one line every 15 s from each scraper adds nothing).
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, options: { token: string | undefined }) {
  const token = options.token === undefined ? undefined : hash('sha256', options.token, 'buffer');

  const limits = new WeakMap<FastifyRequest, string>();
  app.addHook('onError', (request, _reply, error, done) => {
    const limit = refusingLimit.get(error);
    if (limit !== undefined) limits.set(request, limit);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) metrics.refused(limits.get(request) ?? 'other', route);
    done();
  });

  app.get('/api/metrics', { logLevel: 'warn', schema: { hide: true } }, async (request, reply) => {
    if (!mayScrape(request, token)) return reply.callNotFound();
    const text = await metrics.text();
    return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
  });
}
