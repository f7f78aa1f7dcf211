import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';
import { HttpError } from './http-error.js';

/**
 * Idempotency-Key (issue 44; draft-ietf-httpapi-idempotency-key-header): a write sent again with the same key by the
 * same person within 24 hours answers what the first one made, and stores nothing twice. The Mastodon API's status
 * creates keep their keys in the process for an hour (Mastodon's rule); this is the same mechanism (one promise per
 * `person key` while it runs, a refused write forgotten so that it may be corrected and sent again) made durable: the
 * key is claimed in `idempotency_keys` (migration 0057) before the write, so a replay that reaches another process,
 * or arrives after a restart, finds it. A claim whose write never finished (the process died) is taken over after a
 * minute; keys older than 24 hours are swept.
 */

export const IDEMPOTENCY_ERRORS = {
  key: 'Idempotency-Key must be 1 to 255 visible ASCII characters: send one new key (a UUID) per write, and the same key when you send that write again.',
  busy: 'A request with this Idempotency-Key is still being answered: send it again in a moment.',
} as const;

/** How long a key is remembered. */
export const IDEMPOTENCY_HOURS = 24;
/** A claim whose write did not finish in this long is taken over by the next request with its key. */
const STALE_CLAIM_SECONDS = 60;

const KEY = /^[\x21-\x7e]{1,255}$/;

/** The request's key, checked (400 with what to fix); undefined when it sends none. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !KEY.test(key.trim())) throw new HttpError(400, IDEMPOTENCY_ERRORS.key);
  return key.trim();
}

export function createIdempotency(db: Db, scope: string) {
  const running = new Map<string, Promise<{ resultId: string; replayed: boolean }>>();
  let sweptAt = 0;

  async function sweep() {
    if (Date.now() - sweptAt < 3600_000) return;
    sweptAt = Date.now();
    await db.execute(
      sql`delete from idempotency_keys where created_at < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`,
    );
  }

  async function once(userId: string, key: string, write: () => Promise<string>) {
    await sweep();
    const [claimed] = await queryRows<{ claimed: boolean }>(
      db,
      sql`insert into idempotency_keys as k (user_id, scope, key) values (${userId}::uuid, ${scope}, ${key})
          on conflict (user_id, scope, key) do update set created_at = now(), result_id = null
          where k.created_at < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})
             or (k.result_id is null and k.created_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS}))
          returning true as claimed`,
    );
    if (!claimed) {
      const [known] = await queryRows<{ result_id: string | null }>(
        db,
        sql`select result_id from idempotency_keys where user_id = ${userId}::uuid and scope = ${scope} and key = ${key}`,
      );
      if (known?.result_id) return { resultId: known.result_id, replayed: true };
      throw new HttpError(409, IDEMPOTENCY_ERRORS.busy);
    }
    let resultId: string;
    try {
      resultId = await write();
    } catch (error) {
      // Refused: forgotten, so that the client may correct it and send it again with the same key.
      await db.execute(
        sql`delete from idempotency_keys where user_id = ${userId}::uuid and scope = ${scope} and key = ${key}`,
      );
      throw error;
    }
    await db.execute(
      sql`update idempotency_keys set result_id = ${resultId}
          where user_id = ${userId}::uuid and scope = ${scope} and key = ${key}`,
    );
    return { resultId, replayed: false };
  }

  return {
    /**
     * Runs `write` (which answers the id of what it made) once per person and key: a repeat answers the first one's
     * id, `replayed`. Without a key, `write` simply runs.
     */
    async run(
      userId: string,
      key: string | undefined,
      write: () => Promise<string>,
    ): Promise<{ resultId: string; replayed: boolean }> {
      if (key === undefined) return { resultId: await write(), replayed: false };
      const name = `${userId} ${key}`;
      const earlier = running.get(name);
      if (earlier) return { resultId: (await earlier).resultId, replayed: true };
      const result = once(userId, key, write);
      running.set(name, result);
      try {
        return await result;
      } finally {
        running.delete(name);
      }
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
