import cluster from 'node:cluster';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openPglite, openPostgres, type Database } from './db/client.js';
import { migrate } from './db/migrate.js';
import { seedSampleData } from './seed/seed.js';
import { loadOrCreateJwtSecret, loadOrCreateVapidKeys, lockDataDir } from './lib/data-dir.js';
import { runWorkers, WORKER_SLOT } from './workers.js';

async function main(): Promise<void> {
  const base = loadConfig();
  const releaseLock = base.databaseUrl ? undefined : await lockDataDir(base.dataDir);
  const config: Config = {
    ...base,
    jwtSecret: base.jwtSecret ?? (await loadOrCreateJwtSecret(base.dataDir)),
    // Web Push's key pair (issue 44), kept like the JWT secret.
    vapidKeys: base.vapidKeys ?? (await loadOrCreateVapidKeys(base.dataDir)),
  };
  await mkdir(config.mediaDir, { recursive: true });

  const database: Database = config.databaseUrl
    ? await openPostgres(config.databaseUrl)
    : await openPglite(path.join(config.dataDir, 'db'));
  await migrate(database);
  await seedSampleData(database.db, {
    mediaDir: config.mediaDir,
    mediaStore: config.mediaStore,
    passwordHashCost: config.passwordHashCost,
  });

  // WORKERS>1: this process is the primary. It has done the one-time work above (each worker then finds
  // the migrations applied and the sample data there) and only supervises the workers (workers.ts).
  if (cluster.isPrimary && (config.workers ?? 1) > 1) {
    await database.close();
    runWorkers(config.workers ?? 1, primaryLog);
    return;
  }

  const app = await buildApp(config, database);
  // Tests of several workers (SHARE_ARTS_WORKER_HEADER=1) see which process answered; never in production.
  if (config.workerHeader) {
    app.addHook('onSend', async (_request, reply) => void reply.header('x-share-arts-worker', String(process.pid)));
  }
  // Requests still being answered when a stop is asked for finish before the database closes. A
  // WebSocket upgrade is not one: it never gets a response, and its socket is closed by the app.
  let inFlight = 0;
  const counted = new WeakSet<object>();
  app.addHook('onRequest', (request, _reply, next) => {
    if (!request.headers.upgrade) {
      counted.add(request);
      inFlight += 1;
    }
    next();
  });
  const done = (request: object) => {
    if (counted.delete(request)) inFlight -= 1;
  };
  app.addHook('onResponse', (request, _reply, next) => {
    done(request);
    next();
  });
  // A request whose client hung up gets no onResponse, but its handler runs on (and may still use the
  // database) until it sends into the void: it is done when it has both been aborted and sent.
  const aborted = new WeakSet<object>();
  const sent = new WeakSet<object>();
  app.addHook('onSend', (request, _reply, payload, next) => {
    sent.add(request);
    if (aborted.has(request)) done(request);
    next(null, payload);
  });
  app.addHook('onRequestAbort', (request, next) => {
    aborted.add(request);
    if (sent.has(request)) done(request);
    next();
  });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    for (let waited = 0; inFlight > 0 && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await database.close();
    await releaseLock?.();
    // The log has no exit hook (see lib/log-destination.ts): its last lines are written first, unless
    // it cannot be written, when waiting on it must not keep the server from stopping.
    await new Promise<void>((resolve) => {
      // Fastify's logger is pino, whose flush its logger type leaves out.
      (app.log as unknown as { flush(done: () => void): void }).flush(() => resolve());
      setTimeout(resolve, 2000).unref();
    });
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const worker = process.env[WORKER_SLOT] ? ` (worker ${process.env[WORKER_SLOT]}, pid ${process.pid})` : '';
  app.log.info(
    `Share Arts is running at http://localhost:${config.port} (database: ${database.kind}, Node ${process.version})${worker}`,
  );
}

/** The primary's few lines, in the JSON shape of the workers' log. */
const primaryLog = {
  info: (msg: string) => console.log(JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg })),
  warn: (msg: string) => console.log(JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, msg })),
};

main().catch((error: unknown) => {
  const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
  console.error(`Share Arts could not start: ${message}`);
  if (!(error instanceof ConfigError) && error instanceof Error && process.env.LOG_LEVEL === 'debug') {
    console.error(error.stack);
  }
  process.exit(1);
});
