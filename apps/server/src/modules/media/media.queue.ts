import { HttpError, refusal } from '../../lib/http-error.js';

/** The queue's refusals (issue 43: `{waiting}` is filled in the reader's language). */
export const MEDIA_QUEUE_MESSAGES = {
  busy: 'The server is busy processing other pictures. Please try again in a moment.',
  ownWaiting:
    'You already have {waiting} pictures waiting to be processed: wait for them to finish, then upload the rest.',
} as const;
export const MEDIA_BUSY = MEDIA_QUEUE_MESSAGES.busy;
/** The refusal of one more upload while `waiting` of the account's wait (its English). */
export const tooManyOwnWaiting = (waiting: number) => ownWaiting(waiting).message;
const ownWaiting = (waiting: number) =>
  refusal(429, MEDIA_QUEUE_MESSAGES.ownWaiting, { waiting }, { 'retry-after': '10' });

interface Account {
  active: number;
  waiting: { seq: number; start: () => void }[];
  /** When this account's last job started (0: never), in starts counted by the queue. */
  lastStart: number;
}

export interface FairQueueOptions {
  /** Jobs run at the same time. */
  concurrency: number;
  /** Jobs that may wait in all; beyond it a 503 with Retry-After. */
  maxQueued: number;
  /** Jobs one account may have waiting; beyond it a 429 with Retry-After. */
  maxQueuedPerAccount: number;
  /** Jobs one account may run at once (default: all slots but one, at least one). */
  maxRunningPerAccount?: number;
}

/**
 * Runs at most `concurrency` jobs at once, and at most `maxRunningPerAccount` of one account's, so a
 * slot stays free for someone else: processing cannot be interrupted, and one 40-megapixel picture
 * takes several seconds. A freed slot goes to the waiting account with the fewest jobs running, and
 * among those to the one served least recently: one account's twenty uploads cannot make another's
 * wait behind all of them. Decoding and encoding run on
 * libuv's thread pool (4 threads by default), which also serves file reads and password hashing, so
 * pictures must not take all of it.
 */
export function createFairQueue({
  concurrency,
  maxQueued,
  maxQueuedPerAccount,
  maxRunningPerAccount = Math.max(1, concurrency - 1),
}: FairQueueOptions) {
  const accounts = new Map<string, Account>();
  let active = 0;
  let queued = 0;
  let peak = 0;
  let starts = 0;
  let arrivals = 0;

  const accountOf = (key: string) => {
    let account = accounts.get(key);
    if (!account) accounts.set(key, (account = { active: 0, waiting: [], lastStart: 0 }));
    return account;
  };

  function begin(account: Account) {
    active += 1;
    account.active += 1;
    account.lastStart = ++starts;
    peak = Math.max(peak, active);
  }

  /** Hands a free slot to the account whose turn it is; false when no waiting account may start. */
  function next(): boolean {
    let chosen: Account | undefined;
    for (const account of accounts.values()) {
      if (account.waiting.length === 0 || account.active >= maxRunningPerAccount) continue;
      if (
        !chosen ||
        account.active < chosen.active ||
        (account.active === chosen.active &&
          (account.lastStart < chosen.lastStart ||
            (account.lastStart === chosen.lastStart && account.waiting[0]!.seq < chosen.waiting[0]!.seq)))
      ) {
        chosen = account;
      }
    }
    if (!chosen) return false;
    queued -= 1;
    begin(chosen);
    chosen.waiting.shift()!.start();
    return true;
  }

  return {
    /** Runs `job` for account `key` when its turn comes; 429 or 503 when it may not wait. */
    async run<T>(key: string, job: () => Promise<T>): Promise<T> {
      const mayStart = active < concurrency && (accounts.get(key)?.active ?? 0) < maxRunningPerAccount;
      if (!mayStart) {
        const waiting = accounts.get(key)?.waiting.length ?? 0;
        if (waiting >= maxQueuedPerAccount) {
          throw ownWaiting(waiting);
        }
        if (queued >= maxQueued) throw new HttpError(503, MEDIA_BUSY, { 'retry-after': '5' });
      }
      const account = accountOf(key);
      if (mayStart) {
        begin(account);
      } else {
        queued += 1;
        await new Promise<void>((start) => account.waiting.push({ seq: ++arrivals, start }));
      }
      try {
        return await job();
      } finally {
        active -= 1;
        account.active -= 1;
        if (account.active === 0 && account.waiting.length === 0) accounts.delete(key);
        while (active < concurrency && next());
      }
    },
    stats: () => ({ active, queued, peak, accounts: accounts.size }),
  };
}
