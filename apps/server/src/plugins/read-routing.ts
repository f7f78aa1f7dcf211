import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import type { Db } from '../db/client.js';
import { openReplicas, primaryCookie, primaryUntilOf, type ReadRouting } from '../db/replicas.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the hot reads go (DATABASE_REPLICA_URLS, issue 25); tests read its replicas' state. */
    readRouting: ReadRouting;
  }
}

export interface ReadRoutingOptions {
  /** DATABASE_REPLICA_URLS: none, and the primary answers every read. */
  urls: string[];
  /** DATABASE_REPLICA_MAX_LAG_MS. */
  maxLagMs: number;
  /** The shortest a write's mark lasts (the viewer states' own, issue 26), when replicas lag less. */
  markMs: number;
}

/** The viewers' flags remembered in memory (the posts module's viewer states, issue 26). */
export interface MarkedViewers {
  wrote(userId: string, forMs: number): void;
}

export interface ReadRoutingHooks {
  reads: ReadRouting;
  /**
   * What the auth guards call when a request's user is known: where their reads go is decided from it, and
   * a request that brings a recent write's mark reads their flags from the database until the mark ends.
   */
  identified(viewerStates: MarkedViewers): (request: FastifyRequest, userId: string) => void;
}

const writing = (request: FastifyRequest) => request.method !== 'GET' && request.method !== 'HEAD';

/**
 * Read replicas (issue 25): the pages' reads ask `reads.reader(viewer)` for a caught-up replica's db; a
 * person's reads stay on the primary from their write until every replica used has it (db/replicas.ts), in
 * this process and, through the primary cookie, in the others.
 */
export async function registerReadRouting(
  app: FastifyInstance,
  db: Db,
  { urls, maxLagMs, markMs: viewerMarkMs }: ReadRoutingOptions,
): Promise<ReadRoutingHooks> {
  const reads = await openReplicas(db, urls, { maxLagMs, log: app.log });
  app.decorate('readRouting', reads);
  app.addHook('onClose', () => reads.close());
  app.addHook('onResponse', (request, _reply, next) => {
    if (request.userId && writing(request)) reads.wrote(request.userId);
    next();
  });
  // The mark travels with the person to the other processes and machines (PRIMARY_COOKIE): every
  // successful write's answer carries it, and a request that brings it reads from the primary until then,
  // and its viewer's flags from the database rather than memory (issue 26: the event that tells this
  // process of the write may not be here yet). So it is set with replicas or without.
  // Only the routes that write get the hook: a read pays nothing for it.
  const markMs = Math.max(reads.maxLagMs, viewerMarkMs);
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
  const identified = (viewerStates: MarkedViewers) => (request: FastifyRequest, userId: string) => {
    if (writing(request)) reads.wrote(userId);
    const until = primaryUntilOf(request.headers.cookie);
    if (until !== undefined) {
      reads.wrote(userId, until - Date.now());
      viewerStates.wrote(userId, Math.min(until - Date.now(), markMs));
    }
  };
  return { reads, identified };
}
