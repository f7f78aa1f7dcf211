import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.js';
import { isUuid } from '../../lib/ids.js';
import type { EventBus } from '../../events/bus.js';
import { selectAccountState } from './users.sql.js';

/** Whether an account may act: it exists and is not suspended (`until` null: for good). */
export type AccountStatus = { state: 'active' } | { state: 'gone' } | { state: 'suspended'; until: string | null };

export interface AccountCheck {
  /** True while the account exists: a token outlives its user, and nothing may be done in a deleted user's name. */
  exists(userId: string): Promise<boolean>;
  /** Whether the account exists and is not suspended (issue 23): a suspended account's tokens stop working. */
  status(userId: string): Promise<AccountStatus>;
  /** Forgets that the account was seen active, at once in this process (a suspension; others hear `author-changed`). */
  forget(userId: string): void;
}

/**
 * Whether an account exists, asked on every signed-in request. An account seen to exist is remembered, so
 * a signed-in page costs one database round trip, not two. Deleting a user row, by any path (there is no
 * route for it; an operator's SQL), sends `account-deleted` from a trigger (migrations 0007, 0009), and every process
 * forgets that account. A check in progress when any account is deleted is not remembered; after the
 * event listener was away, everything is forgotten. Accounts that do not exist, or are suspended, are never
 * remembered; a suspension forgets the account (`forget` here at once, `author-changed` in every process).
 */
export function createAccountCheck({ db, bus, max = 100_000 }: { db: Db; bus: EventBus; max?: number }): AccountCheck {
  const known = new LRUCache<string, true>({ max });
  /** Counts deletions (and resumes): a check that saw it change while it ran does not store its answer. */
  let generation = 0;
  const forget = (userId: string) => {
    known.delete(userId);
    generation += 1;
  };
  bus.subscribe(
    (event) => {
      // A suspension is sent as `author-changed` (the account's content changes for everyone): forgotten too.
      if (event.type === 'account-deleted' || event.type === 'author-changed') forget(event.userId);
    },
    () => {
      known.clear();
      generation += 1;
    },
  );

  /** Only active accounts are remembered: a suspended one is read every time (a suspension may end on its own). */
  async function status(userId: string): Promise<AccountStatus> {
    if (!isUuid(userId)) return { state: 'gone' };
    if (known.has(userId)) return { state: 'active' };
    const started = generation;
    const row = await selectAccountState(db, userId);
    if (!row) return { state: 'gone' };
    if (row.suspended) return { state: 'suspended', until: row.suspended_until };
    if (generation === started) known.set(userId, true);
    return { state: 'active' };
  }

  return {
    status,
    forget,
    async exists(userId) {
      return (await status(userId)).state !== 'gone';
    },
  };
}
