import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from '@fedify/fedify';
import type { JobKindOptions, JobQueue } from '../../jobs/queue.js';

/** What Fedify hands its queue: a JSON message (an activity to deliver, to fan out, or taken in). */
type Handler = (message: unknown) => Promise<void> | void;

/**
 * Fedify's message queue over the project's durable jobs (pg-boss, issue 37), in place of its in-process queue
 * (lost on restart) and of @fedify/postgres (published for Fedify 1.x only): each message is a job of `kind`,
 * kept in the database, claimed by one process of the cluster, and, when its handler throws, retried by the
 * job queue with exponential back-off (`nativeRetrial`: Fedify leaves the retries to it), across restarts. A
 * delay (a `Retry-After`, a held delivery) is the job's start time. Ordering keys are not kept: messages are
 * run in the order queued, a retry after the ones behind it.
 *
 * The kind is defined when this is made (before the job queue starts); Fedify's `listen` (from
 * `federation.startQueue`) hands the handler the jobs then call. A job run before that, or after the listening
 * stopped, fails and is retried.
 */
export function createJobMessageQueue(
  jobs: JobQueue,
  kind: string,
  options: JobKindOptions<{ message: unknown }>,
  /** What a message is stored as (the deliveries' JSON as the fediverse's parsers read it). */
  shape: (message: unknown) => unknown = (message) => message,
  /** Awaited before each message is handled (the deliveries' pagesFirst). */
  before?: () => Promise<void>,
): MessageQueue {
  let handler: Handler | undefined;
  jobs.define<{ message: unknown }>(
    kind,
    async ({ message }) => {
      if (!handler) throw new Error(`${kind}: Fedify is not listening yet`);
      if (before) await before();
      await handler(message);
    },
    options,
  );

  const startAfterSeconds = (delay: MessageQueueEnqueueOptions['delay']) =>
    delay ? Math.max(0, delay.total({ unit: 'millisecond' }) / 1000) : 0;

  /**
   * The messages queued (with no delay) in one turn of the event loop, stored together as one statement: inbox POSTs
   * arriving at once each queue their activity, and each waits until its own is stored, as alone (Fedify answers 202
   * only then); when the statement fails, each of them fails.
   */
  let pending: { payload: { message: unknown }; stored: () => void; failed: (error: unknown) => void }[] = [];
  const storePending = () => {
    const batch = pending;
    pending = [];
    jobs
      .sendMany(
        kind,
        batch.map(({ payload }) => payload),
      )
      .then(
        () => batch.forEach(({ stored }) => stored()),
        (error: unknown) => batch.forEach(({ failed }) => failed(error)),
      );
  };

  return {
    nativeRetrial: true,
    async enqueue(message: unknown, enqueueOptions?: MessageQueueEnqueueOptions) {
      const seconds = startAfterSeconds(enqueueOptions?.delay);
      if (seconds > 0) {
        await jobs.send(kind, { message: shape(message) }, { startAfterSeconds: seconds });
        return;
      }
      await new Promise<void>((stored, failed) => {
        pending.push({ payload: { message: shape(message) }, stored, failed });
        if (pending.length === 1) setImmediate(storePending);
      });
    },
    async enqueueMany(messages: readonly unknown[], enqueueOptions?: MessageQueueEnqueueOptions) {
      const seconds = startAfterSeconds(enqueueOptions?.delay);
      if (seconds > 0) {
        for (const message of messages)
          await jobs.send(kind, { message: shape(message) }, { startAfterSeconds: seconds });
        return;
      }
      await jobs.sendMany(
        kind,
        messages.map((message) => ({ message: shape(message) })),
      );
    },
    listen(listener: Handler, listenOptions?: MessageQueueListenOptions): Promise<void> {
      handler = listener;
      const signal = listenOptions?.signal;
      return new Promise<void>((resolve) => {
        if (!signal) return;
        const stop = () => {
          if (handler === listener) handler = undefined;
          resolve();
        };
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
      });
    },
  };
}

/** The requests a second to this process past which its pages are busy (pagesFirst). */
export const BUSY_REQUESTS_PER_SECOND = 50;
/** While the pages are busy, one delivery starts every this many milliseconds (pagesFirst): at most 25 a second. */
export const BUSY_DELIVERY_PACE_MS = 40;
/** How long the requests are counted over before the rate is read again. */
const RATE_WINDOW_MS = 250;

/**
 * The pages first (bench:federation, issue 39: a fan-out took the pages' CPU while it lasted, which answered at
 * 0.49–0.70 times their speed alone): while this process answers at least BUSY_REQUESTS_PER_SECOND requests a second
 * (any HTTP request to `server`, counted over the last quarter of a second), deliveries start one every
 * BUSY_DELIVERY_PACE_MS, 10–15 % of a core at the 4–6 ms of CPU a delivery takes; otherwise as fast as the
 * deliveries in flight allow (FEDERATION_DELIVERIES). A work to 500 servers is then delivered in about 21 s however
 * busy the pages are; to 10,000 personal inboxes (the worst case: most servers have a shared inbox), in about 7
 * minutes under a steady load. Answers the wait each delivery awaits before it starts.
 */
export function pagesFirst(
  server: { on(event: 'request', listener: () => void): unknown },
  { busyPerSecond = BUSY_REQUESTS_PER_SECOND, paceMs = BUSY_DELIVERY_PACE_MS } = {},
): () => Promise<void> {
  let counted = 0;
  let since = performance.now();
  let busy = false;
  let nextStart = 0;
  server.on('request', () => {
    counted += 1;
  });
  return async () => {
    const now = performance.now();
    if (now - since >= RATE_WINDOW_MS) {
      busy = (counted * 1000) / (now - since) >= busyPerSecond;
      counted = 0;
      since = now;
    }
    if (!busy) return;
    const start = Math.max(now, nextStart);
    nextStart = start + paceMs;
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
  };
}
