import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import type { DomainEvent } from '../../events/events.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { PushMessage, PushSender } from './push.sender.js';
import { composeAppPush, composePush } from './push.service.js';
import type { TokenSeal } from './push.token-seal.js';
import {
  deleteSubscriptionById,
  deleteSubscriptions,
  markDelivered,
  markFailed,
  markGroups,
  markManyDelivered,
  selectDevice,
  selectDevicesOf,
  selectPendingGroups,
  takeGroups,
  type GroupRef,
} from './push.sql.js';

/**
 * Delivery (issue 44): a notification for someone with no tab open marks its push group pending; the groups that
 * became pending together are queued as one job (`push.groups`) that waits out the groups' window, then gathers
 * what each group got ("Ana and 4 others liked “Dusk”") and pushes it to each of the person's devices that take the
 * kind, many at once. A device whose push service is away gets the push again from its own job (`push.deliver`,
 * retried with back-off); 404 or 410 forgets the subscription.
 */

export const PUSH_JOBS = { groups: 'push.groups', deliver: 'push.deliver' } as const;
/** Tries of one device's push after the first (back-off from 30 s), then it is given up. */
export const DELIVER_RETRIES = 5;
/** A subscription whose pushes were given up this many times in a row is forgotten. */
export const MAX_FAILURES = 10;
/** Groups in one job, and notifications marked in one statement. */
const BATCH = 500;
/** Pushes in flight at once from one job. */
const IN_FLIGHT = 64;

interface GroupsJob {
  groups: GroupRef[];
}
interface DeliverJob {
  subscriptionId: string;
  message: PushMessage;
}
interface Device {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  encoding: 'aes128gcm' | 'aesgcm';
}

/** Runs `work` on each item, at most `limit` at once. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

export function createPushDelivery({
  db,
  jobs,
  sender,
  log,
  online,
  groupSeconds,
  seal,
  origin,
}: {
  /** Opens a Mastodon app's sealed token (its pushes carry it). */
  seal: TokenSeal;
  /** The site's origin: a Mastodon app's push names the person's photo by its full address. */
  origin: string;
  db: Db;
  jobs: JobQueue;
  sender: PushSender;
  log: FastifyBaseLogger;
  /** Whether this process has one of the person's live sockets open (a tab). */
  online: (userId: string) => boolean;
  groupSeconds: () => number;
}) {
  /** One more push given up: a subscription that keeps failing is forgotten. */
  async function counted(subscriptionId: string) {
    const failures = await markFailed(db, subscriptionId);
    if (failures !== undefined && failures >= MAX_FAILURES) await deleteSubscriptionById(db, subscriptionId);
  }

  /** The groups' pushes, each to the devices of its person that take its kind. */
  async function pushGroups(groups: GroupRef[]) {
    const items = await takeGroups(db, groups);
    // One of the person's tabs opened since (in this process): they see it there.
    const wanted = items.filter((item) => !online(item.user_id));
    if (wanted.length === 0) return;
    const devices = await selectDevicesOf(db, [...new Set(wanted.map((item) => item.user_id))]);
    const byUser = new Map<string, typeof devices>();
    for (const device of devices) byUser.set(device.user_id, [...(byUser.get(device.user_id) ?? []), device]);
    const sends: { device: Device; message: PushMessage }[] = [];
    for (const item of wanted) {
      const push = composePush(item.group_key, [item]);
      if (!push) continue;
      for (const device of byUser.get(item.user_id) ?? []) {
        if (!device.kinds.includes(push.kind)) continue;
        if (device.client !== 'mastodon') {
          sends.push({ device, message: push.message });
          continue;
        }
        // A Mastodon app's subscription: Mastodon's payload, with the app's token, as its policy allows.
        const token = device.app_token ? seal.open(device.app_token) : undefined;
        const message = composeAppPush(push, device, { origin, token });
        if (message) sends.push({ device, message });
      }
    }
    const delivered: string[] = [];
    const gone: string[] = [];
    const later: DeliverJob[] = [];
    await eachLimited(sends, IN_FLIGHT, async ({ device, message }) => {
      const outcome = await sender.send(device, message);
      if (outcome.result === 'delivered') delivered.push(device.id);
      else if (outcome.result === 'gone') gone.push(device.id);
      else if (outcome.result === 'failed') later.push({ subscriptionId: device.id, message });
      else {
        log.warn({ push: { subscription: device.id, status: outcome.status } }, `push refused: ${outcome.message}`);
        await counted(device.id);
      }
    });
    await markManyDelivered(db, delivered);
    await deleteSubscriptions(db, gone);
    if (later.length > 0) await jobs.sendMany(PUSH_JOBS.deliver, later, { startAfterSeconds: 30 });
  }

  jobs.define<GroupsJob>(PUSH_JOBS.groups, ({ groups }) => pushGroups(groups), {
    retryLimit: 2,
    retryDelaySeconds: 10,
    // Each job is up to 500 groups, whose pushes go out at once: several jobs of a burst run side by side.
    batchSize: 4,
    keyOf: (job) => job.groups[0]?.user_id,
    expireInSeconds: 300,
  });

  jobs.define<DeliverJob>(
    PUSH_JOBS.deliver,
    async ({ subscriptionId, message }, job) => {
      const device = await selectDevice(db, subscriptionId);
      if (!device) return;
      const outcome = await sender.send(device, message);
      if (outcome.result === 'delivered') return markDelivered(db, device.id);
      if (outcome.result === 'gone') return deleteSubscriptionById(db, device.id);
      if (outcome.result === 'failed' && job.attempt < DELIVER_RETRIES) {
        throw new Error(`the push service did not take the push (${outcome.message}); it is tried again`);
      }
      await counted(device.id);
    },
    {
      retryLimit: DELIVER_RETRIES,
      retryDelaySeconds: 30,
      retryDelayMaxSeconds: 3600,
      keyOf: (job) => job.subscriptionId,
      batchSize: 50,
    },
  );

  // The events of a burst are marked in batches, one batch at a time, in the order they came.
  let waiting: { userId: string; notificationId: string }[] = [];
  let running: Promise<void> | undefined;

  async function markWaiting() {
    while (waiting.length > 0) {
      const marks = waiting.slice(0, BATCH);
      waiting = waiting.slice(BATCH);
      try {
        const live = marks.filter((mark) => online(mark.userId));
        const away = marks.filter((mark) => !online(mark.userId));
        await markGroups(db, live, true);
        const pending = await markGroups(db, away, false);
        for (let at = 0; at < pending.length; at += BATCH) {
          await jobs.send(
            PUSH_JOBS.groups,
            { groups: pending.slice(at, at + BATCH) },
            { startAfterSeconds: groupSeconds() },
          );
        }
      } catch (error) {
        log.error({ err: error }, 'push: notifications could not be marked for a push');
      }
    }
  }

  function schedule() {
    running ??= (async () => {
      // The events of one burst arrive together: they are gathered before the first statement.
      await new Promise((resolve) => setImmediate(resolve));
      await markWaiting();
    })().finally(() => {
      running = undefined;
      if (waiting.length > 0) schedule();
    });
  }

  return {
    onEvent(event: DomainEvent) {
      if (event.type !== 'notification-added') return;
      waiting.push({ userId: event.recipientId, notificationId: event.notificationId });
      schedule();
    },
    /** Resolves once every event received so far is marked (tests, the benchmark). */
    async settled() {
      while (running) await running;
    },
    /** Pushes every pending group now, whatever its window (tests; their jobs then find nothing to do). */
    async flush() {
      const pending = await selectPendingGroups(db);
      for (let at = 0; at < pending.length; at += BATCH) await pushGroups(pending.slice(at, at + BATCH));
    },
  };
}

export type PushDelivery = ReturnType<typeof createPushDelivery>;
