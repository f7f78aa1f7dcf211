import type { Database } from '../db/client.js';
import { EVENT_CHANNEL, parseEvent, type DomainEvent } from './events.js';

export interface EventBus {
  /** Every event any process publishes, after its transaction commits. */
  subscribe(onEvent: (event: DomainEvent) => void, onResume?: () => void): void;
  close(): Promise<void>;
}

/**
 * One LISTEN per process, shared by whoever reacts to events (the live stream, the caches).
 * `onResume` runs after the listening connection came back: events sent meanwhile are lost.
 */
export async function createEventBus(database: Database): Promise<EventBus> {
  const subscribers: { onEvent: (event: DomainEvent) => void; onResume?: () => void }[] = [];
  const unlisten = await database.listen(
    EVENT_CHANNEL,
    (payload) => {
      const event = parseEvent(payload);
      if (event) for (const subscriber of subscribers) subscriber.onEvent(event);
    },
    () => {
      for (const subscriber of subscribers) subscriber.onResume?.();
    },
  );
  return {
    subscribe: (onEvent, onResume) => void subscribers.push({ onEvent, onResume }),
    close: unlisten,
  };
}
