import type { LiveServerFrame } from '@share-arts/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retryDelay, startLive } from './live-connection';
import { watchPost } from './watch-registry';

/** A WebSocket the test drives: it opens, receives and closes when told to. */
class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static all: FakeSocket[] = [];

  readyState = FakeSocket.CONNECTING;
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }

  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close() {
    this.readyState = FakeSocket.CLOSED;
  }

  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }

  receive(frame: LiveServerFrame) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }

  drop(code = 1006) {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code });
  }
}

const latest = () => FakeSocket.all.at(-1)!;
const ready: LiveServerFrame = { type: 'ready', unreadCount: 0, counts: [], lastEventId: null };

function start(token: string | null = 'the-token') {
  const frames: LiveServerFrame[] = [];
  const onUnauthorised = vi.fn();
  const stop = startLive({ getToken: () => token, onFrame: (frame) => frames.push(frame), onUnauthorised });
  return { frames, onUnauthorised, stop };
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  const win = Object.assign(new EventTarget(), {
    location: { protocol: 'https:', host: 'share.example' },
    setTimeout: (callback: () => void, ms?: number) => setTimeout(callback, ms),
    clearTimeout: (id?: number) => clearTimeout(id),
  });
  vi.stubGlobal('window', win);
  vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
  vi.stubGlobal('WebSocket', FakeSocket);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('startLive', () => {
  it('says hello with the token in the first frame, never in the URL, with the posts on screen', () => {
    const release = watchPost('11111111-1111-4111-8111-111111111111');
    const { stop } = start();
    expect(FakeSocket.all).toHaveLength(0);
    vi.advanceTimersByTime(0);
    expect(latest().url).toBe('wss://share.example/api/live');
    latest().open();
    expect(latest().sent).toEqual([
      { type: 'hello', token: 'the-token', lastEventId: null, posts: ['11111111-1111-4111-8111-111111111111'] },
    ]);
    stop();
    release();
  });

  it('opens nothing when stopped at once (a component mounted and unmounted)', () => {
    start().stop();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(0);
  });

  it('sends one debounced watch with the new set once ready, and none when the set is unchanged', () => {
    const { stop } = start();
    vi.advanceTimersByTime(0);
    latest().open();
    latest().receive(ready);
    const a = watchPost('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
    const b = watchPost('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');
    vi.advanceTimersByTime(1_000);
    expect(latest().sent.slice(1)).toEqual([
      {
        type: 'watch',
        posts: ['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'],
      },
    ]);
    const again = watchPost('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
    again();
    vi.advanceTimersByTime(1_000);
    expect(latest().sent).toHaveLength(2);
    a();
    b();
    vi.advanceTimersByTime(1_000);
    expect(latest().sent.at(-1)).toEqual({ type: 'watch', posts: [] });
    stop();
  });

  it('reconnects with backoff after a drop and resumes from the last notification seen', () => {
    const { frames, stop } = start();
    vi.advanceTimersByTime(0);
    latest().open();
    latest().receive(ready);
    latest().receive({
      type: 'notification',
      id: 'cursor-1',
      kind: 'like',
      actor: { _id: 'u', username: 'theo', firstName: 'Theo', lastName: 'Ng', userPhoto: '' },
      postId: null,
      commentId: null,
      text: 'Theo Ng liked your post',
      unreadCount: 1,
      replay: false,
    });
    expect(frames.map((frame) => frame.type)).toEqual(['ready', 'notification']);

    latest().drop();
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(FakeSocket.all).toHaveLength(2);
    latest().open();
    expect(latest().sent[0]).toMatchObject({ type: 'hello', lastEventId: 'cursor-1' });

    // Failing again and again, the wait grows (but stays under the cap).
    latest().drop();
    vi.advanceTimersByTime(1_000);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1_000);
    expect(FakeSocket.all).toHaveLength(3);
    stop();
  });

  it('retries at once when the network comes back or the tab is shown', () => {
    const { stop } = start();
    vi.advanceTimersByTime(0);
    latest().drop();
    for (let i = 0; i < 6; i += 1) {
      vi.advanceTimersByTime(retryDelay(i, () => 1));
      latest().drop();
    }
    const count = FakeSocket.all.length;
    window.dispatchEvent(new Event('online'));
    expect(FakeSocket.all).toHaveLength(count + 1);
    latest().drop();
    document.dispatchEvent(new Event('visibilitychange'));
    expect(FakeSocket.all).toHaveLength(count + 2);
    stop();
  });

  it('ends the session on 4001 and never retries', () => {
    const { onUnauthorised } = start();
    vi.advanceTimersByTime(0);
    latest().open();
    latest().drop(4001);
    expect(onUnauthorised).toHaveBeenCalledOnce();
    window.dispatchEvent(new Event('online'));
    vi.advanceTimersByTime(10 * 60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('gives the stream to a newer tab (4009) until this one is shown again', () => {
    const { stop } = start();
    vi.advanceTimersByTime(0);
    latest().open();
    latest().drop(4009);
    window.dispatchEvent(new Event('online'));
    vi.advanceTimersByTime(10 * 60_000);
    expect(FakeSocket.all).toHaveLength(1);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(FakeSocket.all).toHaveLength(2);
    stop();
  });

  it('closes the socket when stopped (logout)', () => {
    const { stop } = start();
    vi.advanceTimersByTime(0);
    latest().open();
    stop();
    expect(latest().readyState).toBe(FakeSocket.CLOSED);
    vi.advanceTimersByTime(10 * 60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });
});

describe('retryDelay', () => {
  it('doubles from about a second up to a 30 s cap, with jitter in the upper half', () => {
    expect(retryDelay(0, () => 0)).toBe(500);
    expect(retryDelay(0, () => 1)).toBe(1_000);
    expect(retryDelay(3, () => 0.5)).toBe(6_000);
    expect(retryDelay(20, () => 0)).toBe(15_000);
    expect(retryDelay(20, () => 1)).toBe(30_000);
  });
});
