import { sql, type SQL } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.js';

/** The PostgreSQL channel every server process listens on. */
export const LIVE_CHANNEL = 'share_arts_live';

/**
 * What changed, as small as possible: the receiving processes read the current state themselves, so
 * events may be coalesced and never carry stale numbers. Sent with `pg_notify` inside the action's
 * transaction, PostgreSQL delivers it only when (and if) the transaction commits, in commit order.
 */
export type LiveEvent =
  /** A notification row was written for user `r`. */
  | { e: 'n'; r: string; id: string }
  /** User `r`'s unread count changed without a new notification (read, or an action undone). */
  | { e: 'u'; r: string }
  /** Post `p`'s like or comment count changed. */
  | { e: 'c'; p: string }
  /** User `a` published post `p`. */
  | { e: 'p'; p: string; a: string }
  /** Post `p`'s content or picture changed, or it was deleted. */
  | { e: 'e'; p: string }
  /** A comment of post `p` was edited, or voted on by user `u` (what the post's newest comments show changed). */
  | { e: 'k'; p: string; u?: string }
  /** User `a` changed what their posts show of them (name, photo). */
  | { e: 'a'; a: string }
  /** User `a` signed up (people searches must find them). */
  | { e: 'j'; a: string }
  /** User `a`'s account was deleted (sent by a trigger on the users table, migration 0007). */
  | { e: 'd'; a: string };

export async function publish(tx: Db, event: LiveEvent): Promise<void> {
  await tx.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(event)})`);
}

/** An event whose values the statement sending it computes (its ids as SQL expressions). */
type SqlEvent<E = LiveEvent> = E extends LiveEvent ? { [F in keyof E]: F extends 'e' ? E[F] : SQL } : never;

/**
 * `publish` as an expression inside a larger statement (a write done in one round trip): the event's JSON
 * is built by the database from values only the statement knows, such as the id of a row it inserts.
 */
export function publishSql(event: SqlEvent): SQL {
  const fields = Object.entries(event).map(([key, value]) =>
    typeof value === 'string' ? sql`${key}::text, ${value}::text` : sql`${key}::text, ${value as SQL}`,
  );
  return sql`pg_notify(${LIVE_CHANNEL}, json_build_object(${sql.join(fields, sql`, `)})::text)`;
}

export function parseLiveEvent(payload: string): LiveEvent | null {
  try {
    const event = JSON.parse(payload) as LiveEvent;
    return typeof event === 'object' && event !== null && typeof event.e === 'string' ? event : null;
  } catch {
    return null;
  }
}

export interface EventBus {
  /** Every event any process publishes, after its transaction commits. */
  subscribe(onEvent: (event: LiveEvent) => void, onResume?: () => void): void;
  close(): Promise<void>;
}

/**
 * One LISTEN per process, shared by whoever reacts to events (the live stream, the post cache).
 * `onResume` runs after the listening connection came back: events sent meanwhile are lost.
 */
export async function createEventBus(database: Database): Promise<EventBus> {
  const subscribers: { onEvent: (event: LiveEvent) => void; onResume?: () => void }[] = [];
  const unlisten = await database.listen(
    LIVE_CHANNEL,
    (payload) => {
      const event = parseLiveEvent(payload);
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
