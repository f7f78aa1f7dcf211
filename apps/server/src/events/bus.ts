import type { Database } from '../db/client.js';
import { EVENT_CHANNEL, parseEvents, type DomainEvent } from './events.js';
import { startOutboxRelay } from './outbox.js';

export interface EventBus {
  /** Every event any process publishes, after its transaction commits. */
  subscribe(onEvent: (event: DomainEvent) => void, onResume?: () => void): void;
  close(): Promise<void>;
}

/**
 * One LISTEN per process, shared by whoever reacts to events (the live stream, the caches).
 * `onResume` runs after the listening connection came back: events sent meanwhile are lost.
 * On PostgreSQL the process also runs a relay of the event outbox (outbox.ts), which sends the
 * committed events of every process in batches (a notification may carry several, in order).
 */
export async function createEventBus(
  database: Database,
  { onRelayError }: { onRelayError?: (error: unknown) => void } = {},
): Promise<EventBus> {
  const subscribers: { onEvent: (event: DomainEvent) => void; onResume?: () => void }[] = [];
  const unlisten = await database.listen(
    EVENT_CHANNEL,
    (payload) => {
      for (const event of parseEvents(payload)) {
        for (const subscriber of subscribers) subscriber.onEvent(event);
      }
    },
    () => {
      for (const subscriber of subscribers) subscriber.onResume?.();
    },
  );
  const relay =
    database.kind === 'postgres' && database.url
      ? startOutboxRelay(
          database.url,
          database.pools?.().find((p) => p.name === 'primary')?.pool,
          onRelayError ?? ((error) => console.error('event outbox relay:', error)),
        )
      : undefined;
  return {
    subscribe: (onEvent, onResume) => void subscribers.push({ onEvent, onResume }),
    close: async () => {
      await relay?.stop();
      await unlisten();
    },
  };
}
