import { createECDH } from 'node:crypto';
import type { ServerContext } from '../../context.js';
import { createPushDelivery, type PushDelivery } from './push.delivery.js';
import { pushRoutes } from './push.routes.js';
import { createPushSender } from './push.sender.js';
import { createPushService } from './push.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Web Push (issue 44): tests and the benchmark wait for the events to be marked (`settled`), push the waiting
     * groups at once (`flush`), change the window (`groupSeconds`), and see whether a tab is open here (`online`).
     */
    push: PushDelivery & { publicKey: string; groupSeconds: number; online: (userId: string) => boolean };
  }
}

export interface PushSettings {
  vapidKeys?: { publicKey: string; privateKey: string } | undefined;
  vapidSubject?: string | undefined;
  pushAllowPrivateAddress?: boolean | undefined;
  pushGroupSeconds?: number | undefined;
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
  const delivery = createPushDelivery({ db, jobs, sender, log, online, groupSeconds: () => settings.groupSeconds });
  bus.subscribe((event) => delivery.onEvent(event));
  const exposed = Object.defineProperties(delivery, {
    publicKey: { value: keys.publicKey, enumerable: true },
    online: { value: online, enumerable: true },
    groupSeconds: {
      enumerable: true,
      get: () => settings.groupSeconds,
      set: (seconds: number) => {
        settings.groupSeconds = seconds;
      },
    },
  }) as PushDelivery & { publicKey: string; groupSeconds: number; online: (userId: string) => boolean };
  app.decorate('push', exposed);
  app.addHook('onClose', async () => sender.close());
  const push = createPushService({ db, allowPrivateAddress });
  await app.register(pushRoutes, { prefix: '/api', push, publicKey: keys.publicKey, guards });
  return { push };
}

export type PushModule = Awaited<ReturnType<typeof wirePush>>;
