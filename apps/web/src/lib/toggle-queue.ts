/**
 * One request in flight per toggle (a like, a bookmark, a follow), with rapid changes merged: while a
 * request runs only the latest wish is remembered, and when it returns the next request is sent only if
 * that wish still differs from what the server now holds. Modelled on bluesky's useToggleMutationQueue,
 * but keyed globally so every card showing the same post shares one queue.
 */

export type ToggleOutcome<T, R> =
  { ok: true; value: T; result: R } | { ok: false; value: T; failedTarget: T; error: unknown };

export interface ToggleRequest<T, R> {
  /** Identifies the toggle, e.g. `like:<postId>`. */
  key: string;
  /** What the server holds now; used only when nothing is queued for this key yet. */
  confirmed: T;
  /** What the person wants now. */
  desired: T;
  /** Sends one request that makes the server hold `target`. */
  send: (target: T) => Promise<R>;
  /** Called once the queue is idle: `value` is what the server holds in the end. */
  onSettled: (outcome: ToggleOutcome<T, R>) => void;
}

interface Entry<T, R> {
  confirmed: T;
  desired: T;
  running: boolean;
  send: (target: T) => Promise<R>;
  onSettled: (outcome: ToggleOutcome<T, R>) => void;
}

const entries = new Map<string, Entry<unknown, unknown>>();

async function drain<T, R>(key: string, entry: Entry<T, R>): Promise<void> {
  entry.running = true;
  let last: R | undefined;
  let sentAny = false;
  while (!Object.is(entry.desired, entry.confirmed)) {
    const target = entry.desired;
    try {
      last = await entry.send(target);
      sentAny = true;
      entry.confirmed = target;
    } catch (error) {
      entries.delete(key);
      entry.onSettled({ ok: false, value: entry.confirmed, failedTarget: target, error });
      return;
    }
  }
  entries.delete(key);
  if (sentAny) entry.onSettled({ ok: true, value: entry.confirmed, result: last as R });
  else entry.onSettled({ ok: true, value: entry.confirmed, result: undefined as R });
}

/** Queues the wish `desired` for `key`; at most one request per key is in flight. */
export function queueToggle<T, R>(request: ToggleRequest<T, R>): void {
  const existing = entries.get(request.key) as Entry<T, R> | undefined;
  if (existing) {
    existing.desired = request.desired;
    existing.send = request.send;
    existing.onSettled = request.onSettled;
    return;
  }
  const entry: Entry<T, R> = {
    confirmed: request.confirmed,
    desired: request.desired,
    running: false,
    send: request.send,
    onSettled: request.onSettled,
  };
  entries.set(request.key, entry as Entry<unknown, unknown>);
  void drain(request.key, entry);
}

/** Whether a toggle for `key` is still being sent. */
export function isToggleBusy(key: string): boolean {
  return entries.has(key);
}
