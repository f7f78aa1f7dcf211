/**
 * A write the service worker kept to send later (offline): it answers 202 `{ queued: true }` (src/sw/sw.ts).
 * The page then keeps what it shows (the heart filled, the comment pending) instead of rolling it back.
 */
export const isQueued = (payload: unknown): payload is { queued: true } =>
  typeof payload === 'object' && payload !== null && (payload as { queued?: unknown }).queued === true;
