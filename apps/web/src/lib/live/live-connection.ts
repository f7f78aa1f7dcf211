import type { LiveClientFrame, LiveServerFrame } from '@share-arts/contract';
import { LIVE, LIVE_CLOSE } from '@share-arts/contract';
import { onWatchedPostsChange, watchedPosts } from './watch-registry';

/** First retry after about a second, doubling to about 30 s (with jitter, so tabs do not retry in step). */
const RETRY_BASE_MS = 1_000;
const RETRY_CAP_MS = 30_000;
/** Cards scroll in and out quickly: one `watch` frame per pause, not per card. */
const WATCH_DEBOUNCE_MS = 400;
/** The close frame's reason when the person signs out (for the server's logs, not a person). */
const SIGNED_OUT = 'Signed out';

export interface LiveOptions {
  /** The stored token, read at every (re)connection. */
  getToken: () => string | null;
  onFrame: (frame: LiveServerFrame) => void;
  /** The server refused the token (close code 4001): the session is over; no retry follows. */
  onUnauthorised: () => void;
}

/** "Equal jitter": half the exponential delay, plus a random part of the other half. */
export function retryDelay(attempt: number, random = Math.random): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** attempt);
  return ceiling / 2 + random() * (ceiling / 2);
}

function liveUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}${LIVE.path}`;
}

function parseFrame(data: unknown): LiveServerFrame | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const frame = JSON.parse(data) as unknown;
    return typeof frame === 'object' && frame !== null && typeof (frame as { type?: unknown }).type === 'string'
      ? (frame as LiveServerFrame)
      : undefined;
  } catch {
    return undefined;
  }
}

const setKey = (ids: string[]) => [...ids].sort().join(',');

/**
 * Opens the live stream (GET /api/live) and keeps it open until the returned function is called:
 * `hello` with the token as the first frame (never in the URL), a debounced `watch` whenever the posts
 * on screen change, reconnection with exponential backoff (at once when the network or the tab comes
 * back) resuming from the last notification seen.
 */
export function startLive(options: LiveOptions): () => void {
  let socket: WebSocket | null = null;
  let ready = false;
  let stopped = false;
  /** Closed because a newer tab took this one's place: wait until this tab is looked at again. */
  let parked = false;
  let attempt = 0;
  let lastEventId: string | null = null;
  let sentWatch = '';
  let retryTimer: number | undefined;
  let watchTimer: number | undefined;

  const send = (frame: LiveClientFrame) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  };

  const flushWatch = () => {
    window.clearTimeout(watchTimer);
    watchTimer = undefined;
    if (!ready) return;
    const posts = watchedPosts();
    const key = setKey(posts);
    if (key === sentWatch) return;
    sentWatch = key;
    send({ type: 'watch', posts });
  };

  const scheduleWatch = () => {
    window.clearTimeout(watchTimer);
    watchTimer = window.setTimeout(flushWatch, WATCH_DEBOUNCE_MS);
  };

  const scheduleRetry = () => {
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(connect, retryDelay(attempt));
    attempt += 1;
  };

  function connect() {
    window.clearTimeout(retryTimer);
    retryTimer = undefined;
    if (stopped || socket || typeof WebSocket === 'undefined') return;
    const token = options.getToken();
    // Signed out in another tab: nothing to connect with until this one notices.
    if (!token) return;
    parked = false;

    let ws: WebSocket;
    try {
      ws = new WebSocket(liveUrl());
    } catch {
      scheduleRetry();
      return;
    }
    socket = ws;
    ws.onopen = () => {
      const posts = watchedPosts();
      sentWatch = setKey(posts);
      send({ type: 'hello', token, lastEventId, posts });
    };
    ws.onmessage = (event: MessageEvent) => {
      const frame = parseFrame(event.data);
      if (!frame || socket !== ws) return;
      if (frame.type === 'ready') {
        ready = true;
        attempt = 0;
        lastEventId = frame.lastEventId;
      } else if (frame.type === 'notification') {
        lastEventId = frame.id;
      }
      options.onFrame(frame);
      // Cards that came or went between `hello` and `ready`.
      if (frame.type === 'ready') flushWatch();
    };
    // An error is always followed by a close, which decides what happens next.
    ws.onclose = (event: CloseEvent) => {
      if (socket !== ws) return;
      socket = null;
      ready = false;
      if (stopped) return;
      if (event.code === LIVE_CLOSE.unauthorised) {
        stop();
        options.onUnauthorised();
        return;
      }
      if (event.code === LIVE_CLOSE.replaced) {
        // Retrying now would close another tab in turn; this one comes back when it is shown again.
        parked = true;
        return;
      }
      scheduleRetry();
    };
  }

  /** Back online: retry now rather than at the end of the backoff. */
  const onOnline = () => {
    if (!stopped && !socket && !parked) connect();
  };

  /** The tab is shown again: retry now, and take the stream back from a newer tab that took it. */
  const onVisibilityChange = () => {
    if (document.visibilityState === 'visible' && !stopped && !socket) connect();
  };

  function stop() {
    stopped = true;
    window.clearTimeout(retryTimer);
    window.clearTimeout(watchTimer);
    window.removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisibilityChange);
    stopWatching();
    const ws = socket;
    socket = null;
    ready = false;
    if (ws && ws.readyState !== WebSocket.CLOSED) ws.close(1000, SIGNED_OUT);
  }

  const stopWatching = onWatchedPostsChange(scheduleWatch);
  window.addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onVisibilityChange);
  // A tick later: a component mounted and unmounted at once (React's StrictMode) opens nothing.
  retryTimer = window.setTimeout(connect, 0);
  return stop;
}
