import { createECDH } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { createPushDelivery, type PushDelivery } from './push.delivery.js';
import { pushRoutes } from './push.routes.js';
import { createPushSender } from './push.sender.js';
import { createPushService, type PushService } from './push.service.js';
import { createTokenSeal } from './push.token-seal.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Web Push (issue 44): tests and the benchmark wait for the events to be marked (`settled`), push the waiting
     * groups at once (`flush`), change the window (`groupSeconds`), and see whether a tab is open here (`online`).
     */
    push: PushDelivery & {
      publicKey: string;
      groupSeconds: number;
      online: (userId: string) => boolean;
      /**
       * The subscriptions of Mastodon apps (issue 45), for the Mastodon API's push routes: that module is wired
       * before this one, and finds the service here when a request comes.
       */
      apps: Pick<PushService, 'putApp' | 'getApp' | 'updateApp' | 'remove'>;
    };
  }
}

export interface PushSettings {
  vapidKeys?: { publicKey: string; privateKey: string } | undefined;
  vapidSubject?: string | undefined;
  pushAllowPrivateAddress?: boolean | undefined;
  pushGroupSeconds?: number | undefined;
  /** Seals a Mastodon app's token for its pushes (push.token-seal.ts). */
  jwtSecret?: string | undefined;
  publicOrigin?: string | undefined;
  port?: number | undefined;
}

/** A key pair made in memory, for an app built without server.ts (tests): its subscriptions die with it. */
function memoryKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()])
      .subarray(-32)
      .toString('base64url'),
  };
}

/**
 * The push module (issue 44, docs/push.md): devices' push subscriptions (one per session, deleted with it), and the
 * pushes of notifications to people with no tab open, grouped and delivered by the jobs queue. Handed `online` by
 * the live module's wiring: whether this process has one of a person's sockets open.
 */
export async function wirePush(
  shared: ServerContext<PushSettings>,
  { online }: { online: (userId: string) => boolean },
) {
  const { app, bus, config, db, guards, jobs, log } = shared;
  const keys = config.vapidKeys ?? memoryKeys();
  const allowPrivateAddress = config.pushAllowPrivateAddress ?? false;
  const sender = createPushSender({
    vapid: { ...keys, subject: config.vapidSubject ?? 'mailto:webmaster@localhost' },
    allowPrivateAddress,
  });
  const settings = { groupSeconds: config.pushGroupSeconds ?? 10 };
  const seal = createTokenSeal(config.jwtSecret);
  const origin = config.publicOrigin ?? `http://localhost:${config.port ?? 3000}`;
  const delivery = createPushDelivery({
    db,
    jobs,
    sender,
    log,
    online,
    groupSeconds: () => settings.groupSeconds,
    seal,
    origin,
  });
  const push = createPushService({ db, allowPrivateAddress, seal });
  bus.subscribe((event) => delivery.onEvent(event));
  const exposed = Object.defineProperties(delivery, {
    publicKey: { value: keys.publicKey, enumerable: true },
    apps: {
      value: { putApp: push.putApp, getApp: push.getApp, updateApp: push.updateApp, remove: push.remove },
      enumerable: true,
    },
    online: { value: online, enumerable: true },
    groupSeconds: {
      enumerable: true,
      get: () => settings.groupSeconds,
      set: (seconds: number) => {
        settings.groupSeconds = seconds;
      },
    },
  }) as FastifyInstance['push'];
  app.decorate('push', exposed);
  app.addHook('onClose', async () => sender.close());
  await app.register(pushRoutes, { prefix: '/api', push, publicKey: keys.publicKey, guards });
  return { push };
}

export type PushModule = Awaited<ReturnType<typeof wirePush>>;
