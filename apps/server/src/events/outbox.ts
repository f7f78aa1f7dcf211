import pg from 'pg';
import { EVENT_CHANNEL, lastPublishAt } from './events.js';

/** pg_notify refuses a payload of 8000 bytes or more. */
const PAYLOAD_MAX_BYTES = 7999;
/** One relay at a time in the whole cluster (a transaction-level advisory lock): batches go out in order. */
const RELAY_LOCK = 2_602_600_126;
/** Events deleted and sent per relay transaction. */
const BATCH = 2000;
/** How often a relay looks anyway: rows left by a process that died, or a write this process did not hint. */
const POLL_MS = 250;
/** After this process's last event, how long every query it ends makes the relay look. */
const HINT_MS = 1000;
/** After a batch, the next waits this long (unless the batch was full): under load, events gather into batches. */
const GATHER_MS = 10;

/** Payloads (JSON objects) packed in order into JSON arrays of at most PAYLOAD_MAX_BYTES; a payload too long for brackets goes alone. */
export function packPayloads(payloads: string[]): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let bytes = 2;
  const flush = () => {
    if (current.length > 0) chunks.push(`[${current.join(',')}]`);
    current = [];
    bytes = 2;
  };
  for (const payload of payloads) {
    const size = Buffer.byteLength(payload);
    if (size + 2 > PAYLOAD_MAX_BYTES) {
      flush();
      chunks.push(payload);
      continue;
    }
    if (bytes + size + (current.length > 0 ? 1 : 0) > PAYLOAD_MAX_BYTES) flush();
    bytes += size + (current.length > 0 ? 1 : 0);
    current.push(payload);
  }
  flush();
  return chunks;
}

/**
 * The relay of the event outbox (issue 26, migration 0024): writers insert their events in their own
 * transactions instead of sending them with pg_notify, whose commit lock made every notifying writer
 * commit alone. The relay deletes committed rows in id order and sends them, packed into as few
 * notifications as fit in 8000 bytes, in the same transaction: a batch is sent if and only if its rows
 * are gone, so an event leaves only after its writer committed, and one whose relay died (kill -9, a lost
 * connection) is still in the table for the next relay.
 *
 * Order: the events of one post are written under that post's row lock (reactions, comments, edits and
 * deletion lock it first), so a later writer's rows get higher ids and commit later; a relay sees a row only
 * once it has committed, hence never a later row of that post without the earlier one. Relays of several
 * processes take turns on an advisory lock, each batch committed before the next starts.
 *
 * It runs after every query this process ends for a second after it last wrote an event (the pool's
 * `release`), so under load the relay runs back to back and its batches grow with the load, and otherwise
 * every POLL_MS. It has a connection of its own.
 */
export function startOutboxRelay(url: string, pool: pg.Pool | undefined, onError: (error: unknown) => void) {
  let client: pg.Client | undefined;
  let running = false;
  let again = false;
  let stopped = false;
  let gathering: NodeJS.Timeout | undefined;

  const connection = async () => {
    if (client) return client;
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    next.on('error', () => {
      if (client === next) client = undefined;
    });
    await next.connect();
    client = next;
    return next;
  };

  /** Sends one batch; answers how many events it sent. */
  const relayBatch = async (): Promise<number> => {
    const db = await connection();
    await db.query('begin');
    try {
      const { rows } = await db.query<{ id: string; payload: string }>(
        `with relay as materialized (select pg_try_advisory_xact_lock($1) as held)
         delete from event_outbox where id in (
           select id from event_outbox where (select held from relay) order by id limit $2)
         returning id, payload`,
        [RELAY_LOCK, BATCH],
      );
      if (rows.length > 0) {
        rows.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
        await db.query(
          'select pg_notify($1, chunk) from unnest($2::text[]) with ordinality as c(chunk, n) order by n',
          [EVENT_CHANNEL, packPayloads(rows.map((row) => row.payload))],
        );
      }
      await db.query('commit');
      return rows.length;
    } catch (error) {
      await db.query('rollback').catch(() => {});
      throw error;
    }
  };

  const run = async () => {
    if (stopped) return;
    if (running || gathering) {
      again = true;
      return;
    }
    running = true;
    again = false;
    let sent = 0;
    try {
      while (!stopped && (sent = await relayBatch()) === BATCH);
    } catch (error) {
      // The connection went away or the database refused: the rows stay, the next poll tries again.
      await client?.end().catch(() => {});
      client = undefined;
      if (!stopped) onError(error);
    } finally {
      running = false;
    }
    // Asked again meanwhile: after a batch that sent something, a moment for more events to gather.
    if (again && !stopped) {
      again = false;
      gathering = setTimeout(
        () => {
          gathering = undefined;
          void run();
        },
        sent > 0 ? GATHER_MS : 0,
      );
    }
  };

  const poll = setInterval(() => void run(), POLL_MS);
  poll.unref();
  const afterQuery = () => {
    if (Date.now() - lastPublishAt() < HINT_MS) void run();
  };
  pool?.on('release', afterQuery);
  void run();

  return {
    /** Sends what is committed now (tests). */
    flush: run,
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearTimeout(gathering);
      pool?.off('release', afterQuery);
      while (running) await new Promise((resolve) => setTimeout(resolve, 5));
      await client?.end().catch(() => {});
    },
  };
}
