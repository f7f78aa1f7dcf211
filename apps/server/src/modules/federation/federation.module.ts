import { readFile } from 'node:fs/promises';
import type { Federation } from '@fedify/fedify';
import type { Actor } from '@fedify/vocab';
import type { FastifyRequest } from 'fastify';
import type { LookupResponse } from '@share-arts/contract';
import type { ServerContext } from '../../context.js';
import { HttpError } from '../../lib/http-error.js';
// The one rule for the site's public origin: PUBLIC_ORIGIN, else a plain Host header, else none.
import { originOf } from '../../plugins/static-files.js';
import { MEDIA_BUSY, type MediaModule } from '../media/index.js';
import type { PostsModule } from '../posts/index.js';
import { asParsersRead, INBOX_RATE_PER_MINUTE, registerFederationAdapter } from './federation.adapter.js';
import { AP_PATHS, createAppFederation, type FederationRequestData } from './federation.dispatchers.js';
import { startDeliveries, type ActorFarewell } from './federation.deliveries.js';
import { createActorKeys } from './federation.keys.js';
import { INSTANCE_ACTOR } from './federation.instance.js';
import { createDatabaseKvStore, keepLoaders, keepParsedKeys, keepSignedFetches } from './federation.kv.js';
import { followFromRoutes } from './federation.follow-from.js';
import { createJobMessageQueue, pagesFirst } from './federation.queue.js';
import { isSuspendedServer, remoteBlockSender, type RemoteBlockChange } from './federation.safety.js';
import { remoteFollowIdMaker, remoteFollowSender, type RemoteFollowChange } from './federation.outbound-follows.js';
import { startFlagForwarding } from './federation.outbound-flags.js';
import { remoteLikeSender } from './federation.outbound-likes.js';
import { selectActorByUsername, selectShadowByIri } from './federation.sql.js';
import { limitedLoader, type Signer } from './federation.remote-fetch.js';
import {
  keepPerson,
  lookup,
  lookupRoutes,
  LOOKUPS_PER_USER,
  type RemotePeopleDeps,
} from './federation.remote-people.js';
import { aliasesRoutes, carryFollows, moveAwayRoutes } from './federation.account-move.js';
import { backfill, BACKFILL_JOB, REMOTE_WORK_JOB, takeRemoteWork } from './federation.remote-works.js';

/** The hourly sweep of Fedify's expired cache entries. */
const KV_SWEEP = { kind: 'federation.kv-sweep', every: '41 * * * *' } as const;

/**
 * How much of Fedify's work each process runs at once (FEDERATION_DELIVERIES, FEDERATION_INTAKE): deliveries in
 * flight, and activities taken in being applied. Each kind runs as two workers (while one waits on its slowest
 * job, the other goes on) claiming half of it a batch, whose jobs run at once, one lane per inbox or per actor.
 */
export interface FederationLoad {
  deliveries: number;
  intake: number;
}

/**
 * The defaults (bench:federation, issue 39, PostgreSQL): 16 deliveries sent 107 a second with the pages at 0.86 times
 * their speed alone, 32 sent 161 at 0.43 (docs/performance.md, "Federation"): the pages come first.
 */
export const FEDERATION_LOAD: FederationLoad = { deliveries: 16, intake: 16 };

/** A field of a queued message's object (its JSON, as Fedify queued it): a string, else undefined. */
const fieldOf = (value: unknown, name: string): string | undefined => {
  const field = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
  return typeof field === 'string' ? field : undefined;
};

/** A delivery's lane: its inbox (two deliveries to one inbox go in the order queued). */
const inboxOf = ({ message }: { message: unknown }) => fieldOf(message, 'inbox');

/** An activity's lane: its actor (a Like and its Undo are applied in the order queued). */
const actorOf = ({ message }: { message: unknown }) => {
  const activity = (message as { activity?: unknown } | null)?.activity;
  const actor = (activity as { actor?: unknown } | null)?.actor;
  return typeof actor === 'string' ? actor : fieldOf(actor, 'id');
};

/**
 * Fedify's three queues as job kinds: activities taken in (`inbox`), one delivery to one inbox (`outbox`), and
 * an activity to many inboxes split into deliveries (`fanout`). A delivery is tried 16 times after the first,
 * a minute later then doubling to at most 6 hours apart (about two days in all, as a server down for a weekend
 * day still gets its deliveries); a slow inbox holds one of the deliveries in flight (and its batch's end).
 */
function queues({ deliveries, intake }: FederationLoad) {
  const half = (n: number) => Math.max(1, Math.ceil(n / 2));
  return {
    inbox: {
      kind: 'federation.inbox',
      retryLimit: 5,
      retryDelaySeconds: 30,
      concurrency: 2,
      batchSize: half(intake),
      keyOf: actorOf,
    },
    outbox: {
      kind: 'federation.outbox',
      retryLimit: 16,
      retryDelaySeconds: 60,
      retryDelayMaxSeconds: 6 * 3600,
      expireInSeconds: 300,
      concurrency: 2,
      batchSize: half(deliveries),
      keyOf: inboxOf,
    },
    fanout: { kind: 'federation.fanout', retryLimit: 5, retryDelaySeconds: 30, concurrency: 1, batchSize: 1 },
  };
}

/** The activities shaped, by the object Fedify queues (gone with it). */
const shapedActivities = new WeakMap<object, unknown>();

/**
 * A delivery's activity as Mastodon's and Pixelfed's parsers read it (asParsersRead: `to`, `cc`, `tag` and
 * `attachment` as arrays; Fedify writes a lone value bare, and Pixelfed then takes a public work for a private
 * one and drops its pictures). Arrays of one value are the same JSON-LD, so its Linked Data signature holds; the
 * HTTP signature is made when it is sent.
 */
function shapeDelivery(message: unknown): unknown {
  if (typeof message !== 'object' || message === null || !('activity' in message)) return message;
  const { activity } = message;
  if (typeof activity !== 'object' || activity === null) return { ...message, activity: asParsersRead(activity) };
  // A fan-out queues one message per inbox, all with the same activity: it is shaped once.
  let shaped = shapedActivities.get(activity);
  if (shaped === undefined) {
    shaped = asParsersRead(activity);
    shapedActivities.set(activity, shaped);
  }
  return { ...message, activity: shaped };
}

/** The server's version, as NodeInfo names it: apps/server/package.json (beside src/ and dist/ alike). */
async function serverVersion(): Promise<string> {
  const json = await readFile(new URL('../../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(json) as { version: string }).version;
}

/**
 * The federation module (issue 39): WebFinger, host-meta, NodeInfo, each account as an ActivityPub actor, and
 * its public works as Notes, through Fedify, answered before the app's routes and falling through to them for
 * anything Fedify does not serve (part 1); the inboxes, remote followers, and the works sent to them (part 2,
 * federation.inbox.ts and federation.deliveries.ts), through Fedify's queues on the job queue. Its key-value
 * store and the actors' keys (migration 0029), the remote actors and follows and the works sent (0030) are in
 * the app's database.
 */
export async function wireFederation(
  shared: ServerContext<{
    publicOrigin: string | undefined;
    federationAllowPrivateAddress?: boolean;
    federationLoad?: Partial<FederationLoad>;
    federationInboxRate?: number;
  }>,
  {
    posts,
    media,
    remoteBlockChanged,
    remoteFollowId,
    remoteFollowChanged,
    security,
  }: {
    posts: PostsModule;
    /** Following out: a remote person's pictures go through its upload (as an import's), and are deleted with them. */
    media: MediaModule;
    /** The safety module's port: an artist's block of someone on another server is sent to them from here. */
    remoteBlockChanged: { connect(answer: (change: RemoteBlockChange) => Promise<void>): void };
    /** The users module's ports (following out): the id of a Follow of someone on another server, and sending it. */
    remoteFollowId: { connect(answer: (followerId: string) => string | undefined): void };
    remoteFollowChanged: { connect(answer: (change: RemoteFollowChange) => Promise<void>): void };
    /** The sessions module's check that the signed-in person confirmed who they are lately (moving away). */
    security: { requireConfirmed(request: FastifyRequest): Promise<void> };
  },
): Promise<FederationModule> {
  const { app, bus, config, db, guards, jobs, limiter, log } = shared;
  const kv = createDatabaseKvStore(db);
  // Following out (issue 39): remote people and their works, fetched through the limited loader (signed by the
  // instance actor when the site's origin is known), their pictures through the media module's upload.
  const remote = followingOut(shared, { media, posts }, () => appFederation.federation);
  jobs.define(KV_SWEEP.kind, () => kv.sweepExpired(), { every: KV_SWEEP.every, retryLimit: 2, batchSize: 1 });
  const QUEUES = queues({ ...FEDERATION_LOAD, ...config.federationLoad });
  const queueOf = (
    { kind, ...options }: ReturnType<typeof queues>[keyof ReturnType<typeof queues>],
    shape?: (message: unknown) => unknown,
    before?: () => Promise<void>,
  ) => createJobMessageQueue(jobs, kind, options, shape, before);
  const appFederation = createAppFederation({
    db,
    kv,
    queue: {
      inbox: queueOf(QUEUES.inbox),
      // The deliveries give way to the pages while they are busy (pagesFirst).
      outbox: queueOf(QUEUES.outbox, shapeDelivery, pagesFirst(app.server)),
      fanout: queueOf(QUEUES.fanout),
    },
    allowPrivateAddress: config.federationAllowPrivateAddress === true,
    posts: posts.posts,
    keys: createActorKeys(db),
    version: await serverVersion(),
    log,
    works: remote.inbox,
  });
  const { federation } = appFederation;
  keepSignedFetches(federation, kv, AP_PATHS.actor.replace('{identifier}', INSTANCE_ACTOR));
  keepLoaders(federation);
  keepParsedKeys();
  // Fedify's listeners on the three job kinds (their jobs start being claimed once the app is ready).
  const listening = new AbortController();
  void federation.startQueue({}, { signal: listening.signal });
  const deliveries = startDeliveries({ app: appFederation, db, bus, origin: config.publicOrigin, log });
  if (!config.publicOrigin)
    log.warn(
      'federation: PUBLIC_ORIGIN is not set, so nothing is delivered to the fediverse (new works, edits, deletions, ' +
        "profile changes): a delivery made outside a request needs the site's address. Set PUBLIC_ORIGIN=https://your.site.",
    );
  // The events heard are handled before the bus closes; Fedify stops listening after the job queue stopped
  // (registered before it, so after it: the last registered stops first).
  shared.beforeClose(() => deliveries.idle());
  // Reports here of remote people's works, comments or accounts, sent to their server when the reporter asked (Flag).
  const flags = startFlagForwarding({ federation, db, bus, origin: config.publicOrigin, contextData: {}, log });
  shared.beforeClose(() => flags.idle());
  app.addHook('onClose', async () => listening.abort());
  await app.register(followFromRoutes, {
    prefix: '/api',
    db,
    federation,
    limiter,
    publicOrigin: config.publicOrigin,
    allowPrivateAddress: config.federationAllowPrivateAddress === true,
  });
  remoteBlockChanged.connect(remoteBlockSender(federation, config.publicOrigin, {}));
  // Following out (issue 39): follows of people on other servers, and likes of their works, sent to them.
  remoteFollowId.connect(remoteFollowIdMaker(federation, config.publicOrigin, {}));
  remoteFollowChanged.connect(remote.sendFollow);
  posts.remoteLikeChanged.connect(remoteLikeSender(federation, db, config.publicOrigin, {}, log));
  const localHost = (request: FastifyRequest) => {
    const origin = originOf(request, config.publicOrigin);
    return origin ? new URL(origin).host : '';
  };
  await app.register(lookupRoutes, { prefix: '/api', deps: remote.people, guards, limiter, localHost });
  await app.register(aliasesRoutes, { prefix: '/api', deps: remote.people, guards, limiter, localHost });
  const actorPath = (userId: string) => AP_PATHS.actor.replace('{identifier}', userId);
  await app.register(moveAwayRoutes, {
    prefix: '/api',
    deps: remote.people,
    move: {
      actorIri: (userId) => (config.publicOrigin ? new URL(actorPath(userId), config.publicOrigin).href : undefined),
      followIdPrefix: new URL(actorPath(''), config.publicOrigin ?? 'http://localhost').href,
      sendFollow: remote.sendFollow,
      sendMove: deliveries.movedAway,
    },
    guards,
    requireConfirmed: security.requireConfirmed,
    limiter,
    localHost,
  });
  registerFederationAdapter(app, {
    federation,
    publicOrigin: config.publicOrigin,
    actorIdOf: async (username) => (await selectActorByUsername(db, username))?.id,
    refusesServer: (hosts) => isSuspendedServer(db, hosts),
    inboxRate: { limiter, perMinute: config.federationInboxRate ?? INBOX_RATE_PER_MINUTE },
  });
  log.debug('federation: WebFinger, NodeInfo, the actors and their inboxes are served; works are delivered');
  return {
    farewell: deliveries.farewell,
    /**
     * Finds a person or a work on another server (or here) as GET /api/federation/lookup does, for the Mastodon client
     * API's search with resolve=true (issue 45), counted against the same limit per person.
     */
    lookup: async (q: string, viewerId: string, host: string) => {
      await limiter.hit(`federation-lookup:${viewerId}`, LOOKUPS_PER_USER);
      return lookup(remote.people, q, viewerId, host);
    },
  };
}

/**
 * Following out's pieces (issue 39): the works' and people's dependencies (federation.remote-works.ts,
 * federation.remote-people.ts) and their two jobs, a Note taken in and a new person's newest works read.
 */
function followingOut(
  shared: ServerContext<{ publicOrigin: string | undefined; federationAllowPrivateAddress?: boolean }>,
  { media, posts }: { media: MediaModule; posts: PostsModule },
  federation: () => Federation<FederationRequestData>,
) {
  const { config, db, jobs, log } = shared;
  const rules = { allowPrivateAddress: config.federationAllowPrivateAddress === true };
  const contextOf = () => federation().createContext(new URL(config.publicOrigin ?? 'http://localhost'), {});
  // Documents are signed by the instance actor (a server in secure mode answers only signed fetches) when the
  // site's address is known: otherwise the other server could not fetch its key.
  const signer = async (): Promise<Signer | undefined> => {
    if (!config.publicOrigin) return undefined;
    const [pair] = await contextOf().getActorKeyPairs(INSTANCE_ACTOR);
    return pair
      ? { keyId: pair.keyId, privateKey: (pair as unknown as Pick<Signer, 'privateKey'>).privateKey }
      : undefined;
  };
  const deps: RemotePeopleDeps = {
    db,
    rules,
    loader: limitedLoader(rules, signer),
    contextLoader: () => contextOf().contextLoader,
    localHost: () => (config.publicOrigin ? new URL(config.publicOrigin).host : ''),
    log,
    media: {
      upload: (input) => media.media.upload(input),
      deleteMedia: (id) => media.media.deleteMedia(id),
      removeFiles: (pictures) => media.media.removeFiles(pictures),
      busyMessage: MEDIA_BUSY,
    },
    queueBackfill: async (actorIri) => {
      await jobs.send(BACKFILL_JOB.kind, { actorIri });
    },
    // One of our works looked up by its address: answered when the viewer may see it.
    seesPost: async (postId, viewerId) => {
      try {
        await posts.posts.getPost(postId, viewerId);
        return true;
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 404) return false;
        throw error;
      }
    },
  };
  jobs.define<{ noteIri: string; actorIri: string; backfill?: boolean }>(
    REMOTE_WORK_JOB.kind,
    (payload) => takeRemoteWork(deps, payload),
    { retryLimit: REMOTE_WORK_JOB.retryLimit, retryDelaySeconds: REMOTE_WORK_JOB.retryDelaySeconds, batchSize: 1 },
  );
  jobs.define<{ actorIri: string }>(BACKFILL_JOB.kind, (payload) => backfill(deps, payload), {
    retryLimit: BACKFILL_JOB.retryLimit,
    retryDelaySeconds: BACKFILL_JOB.retryDelaySeconds,
    batchSize: 1,
  });
  // Our Follows of people elsewhere and their Undos (the users module's follow port, and the follows a Move carries).
  const sendFollow = (change: RemoteFollowChange) =>
    remoteFollowSender(federation(), db, config.publicOrigin, {}, log)(change);
  return {
    people: deps,
    sendFollow,
    inbox: {
      deps,
      queueWork: async (job: { noteIri: string; actorIri: string }) => {
        await jobs.send(REMOTE_WORK_JOB.kind, job);
      },
      removeFiles: deps.media.removeFiles,
      moved: async (fromIri: string, to: { actor: Actor } | { userId: string }) => {
        if (!config.publicOrigin) return;
        let toUserId: string | undefined;
        if ('userId' in to) toUserId = to.userId;
        else {
          await keepPerson(deps, to.actor);
          toUserId = (await selectShadowByIri(db, to.actor.id!.href))?.user_id;
        }
        if (!toUserId) return;
        const moved = await carryFollows(
          db,
          {
            fromIri,
            toUserId,
            toRemote: !('userId' in to),
            followIdPrefix: new URL(AP_PATHS.actor.replace('{identifier}', ''), config.publicOrigin).href,
          },
          sendFollow,
        );
        log.debug({ fromIri, toUserId, moved }, 'federation: a Move carried our accounts’ follows');
      },
    },
  };
}

/** What the modules wired after it use: the account deletion's farewell (the Delete of the actor). */
export interface FederationModule {
  /**
   * Reads what the Delete of the account's actor needs (its keys, its remote followers) while the account is there;
   * its `send`, called once the deletion committed, queues it. Undefined when there is no one to tell.
   */
  farewell(userId: string): Promise<ActorFarewell | undefined>;
  /**
   * A person or a work on another server (or here) by handle or address, as GET /api/federation/lookup finds it,
   * for `viewerId`, counted against that route's limit per person (the Mastodon client API's search, issue 45).
   * `host` is the site's own host (a handle there is a local account).
   */
  lookup(q: string, viewerId: string, host: string): Promise<LookupResponse>;
}
