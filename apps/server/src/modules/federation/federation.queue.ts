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
): MessageQueue {
  let handler: Handler | undefined;
  jobs.define<{ message: unknown }>(
    kind,
    async ({ message }) => {
      if (!handler) throw new Error(`${kind}: Fedify is not listening yet`);
      await handler(message);
    },
    options,
  );

  const startAfterSeconds = (delay: MessageQueueEnqueueOptions['delay']) =>
    delay ? Math.max(0, delay.total({ unit: 'millisecond' }) / 1000) : 0;

  return {
    nativeRetrial: true,
    async enqueue(message: unknown, enqueueOptions?: MessageQueueEnqueueOptions) {
      const seconds = startAfterSeconds(enqueueOptions?.delay);
      await jobs.send(kind, { message: shape(message) }, seconds > 0 ? { startAfterSeconds: seconds } : undefined);
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
