/**
 * Runs `task` once the browser is idle (at the latest after `timeoutMs`), for work the first paint does
 * not need; returns a function that cancels it. Falls back to a timer where requestIdleCallback is missing.
 */
export function whenIdle(task: () => void, timeoutMs = 2000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 1);
  return () => window.clearTimeout(id);
}
