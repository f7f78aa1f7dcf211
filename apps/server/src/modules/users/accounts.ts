import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.js';
import { isUuid } from '../../lib/ids.js';
import type { EventBus } from '../../events/bus.js';
import { userIdExists } from './users.sql.js';

export interface AccountCheck {
  /** True while the account exists: a token outlives its user, and nothing may be done in a deleted user's name. */
  exists(userId: string): Promise<boolean>;
}

/**
 * Whether an account exists, asked on every signed-in request. An account seen to exist is remembered, so
 * a signed-in page costs one database round trip, not two. Deleting a user row, by any path (there is no
 * route for it; an operator's SQL), sends `account-deleted` from a trigger (migrations 0007, 0009), and every process
 * forgets that account. A check in progress when any account is deleted is not remembered; after the
 * event listener was away, everything is forgotten. Accounts that do not exist are never remembered.
 */
export function createAccountCheck({ db, bus, max = 100_000 }: { db: Db; bus: EventBus; max?: number }): AccountCheck {
  const known = new LRUCache<string, true>({ max });
  /** Counts deletions (and resumes): a check that saw it change while it ran does not store its answer. */
  let generation = 0;
  bus.subscribe(
    (event) => {
      if (event.type !== 'account-deleted') return;
      known.delete(event.userId);
      generation += 1;
    },
    () => {
      known.clear();
      generation += 1;
    },
  );

  return {
    async exists(userId) {
      if (!isUuid(userId)) return false;
      if (known.has(userId)) return true;
      const started = generation;
      const found = await userIdExists(db, userId);
      if (found && generation === started) known.set(userId, true);
      return found;
    },
  };
}
