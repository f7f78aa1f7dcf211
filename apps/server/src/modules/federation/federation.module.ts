import { readFile } from 'node:fs/promises';
import type { ServerContext } from '../../context.js';
import type { PostsModule } from '../posts/index.js';
import { registerFederationAdapter } from './federation.adapter.js';
import { createAppFederation } from './federation.dispatchers.js';
import { createActorKeys } from './federation.keys.js';
import { createDatabaseKvStore } from './federation.kv.js';
import { selectActorByUsername } from './federation.sql.js';

/** The hourly sweep of Fedify's expired cache entries. */
const KV_SWEEP = { kind: 'federation.kv-sweep', every: '41 * * * *' } as const;

/** The server's version, as NodeInfo names it: apps/server/package.json (beside src/ and dist/ alike). */
async function serverVersion(): Promise<string> {
  const json = await readFile(new URL('../../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(json) as { version: string }).version;
}

/**
 * The federation module (issue 39, part 1: being found): WebFinger, host-meta, NodeInfo, each account as an
 * ActivityPub actor, and its public works as Notes, through Fedify, answered before the app's routes and
 * falling through to them for anything Fedify does not serve. Its key-value store and the actors' keys are
 * in the app's database (`federation_kv`, `actor_keys`, migration 0029).
 */
export async function wireFederation(
  shared: ServerContext<{ publicOrigin: string | undefined }>,
  { posts }: { posts: PostsModule },
): Promise<void> {
  const { app, config, db, jobs, log } = shared;
  const kv = createDatabaseKvStore(db);
  jobs.define(KV_SWEEP.kind, () => kv.sweepExpired(), { every: KV_SWEEP.every, retryLimit: 2, batchSize: 1 });
  const federation = createAppFederation({
    db,
    kv,
    posts: posts.posts,
    keys: createActorKeys(db),
    version: await serverVersion(),
  });
  registerFederationAdapter(app, {
    federation,
    publicOrigin: config.publicOrigin,
    actorIdOf: async (username) => (await selectActorByUsername(db, username))?.id,
  });
  log.debug('federation: WebFinger, NodeInfo and the actors are served (nothing is received or sent yet)');
}
