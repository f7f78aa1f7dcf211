import { describe, expect, it } from 'vitest';
import { createFairQueue, MEDIA_BUSY, tooManyOwnWaiting } from './media.queue.js';

/** A queue whose jobs end when the test says so; `order` is the order they started in. */
function harness(options: {
  concurrency: number;
  maxQueued?: number;
  maxQueuedPerAccount?: number;
  maxRunningPerAccount?: number;
}) {
  const queue = createFairQueue({ maxQueued: 100, maxQueuedPerAccount: 100, ...options });
  const order: string[] = [];
  const finish = new Map<string, () => void>();
  const submit = (account: string, name: string) =>
    queue.run(account, () => {
      order.push(name);
      return new Promise<void>((resolve) => finish.set(name, resolve));
    });
  /** Ends a running job and lets the queue hand its slot on. */
  const end = async (name: string) => {
    finish.get(name)!();
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  return { queue, order, submit, end };
}

describe('the fair processing queue', () => {
  it("serves accounts in turns: another account's upload waits behind the running job, not behind the queue", async () => {
    const { queue, order, submit, end } = harness({ concurrency: 1 });
    const jobs = [
      ...['a1', 'a2', 'a3', 'a4'].map((name) => submit('ana', name)),
      ...['b1', 'b2'].map((name) => submit('ben', name)),
      submit('cy', 'c1'),
    ];
    expect(queue.stats()).toMatchObject({ active: 1, queued: 6, accounts: 3 });
    for (const name of ['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']) await end(name);
    await Promise.all(jobs);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect(queue.stats()).toEqual({ active: 0, queued: 0, peak: 1, accounts: 0 });
  });

  it('keeps a slot for others: one account runs at most all slots but one', async () => {
    const { queue, order, submit, end } = harness({ concurrency: 2 });
    const flood = ['a1', 'a2', 'a3'].map((name) => submit('ana', name));
    expect(order).toEqual(['a1']);
    const ben = submit('ben', 'b1');
    expect(order).toEqual(['a1', 'b1']);
    await end('b1');
    await ben;
    expect(queue.stats()).toMatchObject({ active: 1, queued: 2 });
    for (const name of ['a1', 'a2', 'a3']) await end(name);
    await Promise.all(flood);
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('gives a freed slot to the account with the fewest jobs running', async () => {
    const { order, submit, end } = harness({ concurrency: 2, maxRunningPerAccount: 2 });
    const jobs = [...['a1', 'a2', 'a3', 'a4', 'a5'].map((name) => submit('ana', name)), submit('ben', 'b1')];
    expect(order).toEqual(['a1', 'a2']);
    await end('a1');
    expect(order).toEqual(['a1', 'a2', 'b1']);
    await end('a2');
    await end('b1');
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
    await end('a3');
    await end('a4');
    await end('a5');
    await Promise.all(jobs);
  });

  it('answers 429 to an account with too many waiting and 503 when the whole queue is full', async () => {
    const { queue, submit, end } = harness({ concurrency: 1, maxQueued: 3, maxQueuedPerAccount: 2 });
    const jobs = [submit('ana', 'a1'), submit('ana', 'a2'), submit('ana', 'a3')];
    await expect(submit('ana', 'a4')).rejects.toMatchObject({
      statusCode: 429,
      message: tooManyOwnWaiting(2),
      headers: { 'retry-after': '10' },
    });
    // Ana's refusal leaves room for others: Ben still gets a place.
    jobs.push(submit('ben', 'b1'));
    await expect(submit('cy', 'c1')).rejects.toMatchObject({
      statusCode: 503,
      message: MEDIA_BUSY,
      headers: { 'retry-after': '5' },
    });
    expect(queue.stats()).toMatchObject({ active: 1, queued: 3, accounts: 2 });
    for (const name of ['a1', 'b1', 'a2', 'a3']) await end(name);
    await Promise.all(jobs);
    expect(queue.stats()).toEqual({ active: 0, queued: 0, peak: 1, accounts: 0 });
  });

  it('frees the slot when a job fails', async () => {
    const queue = createFairQueue({ concurrency: 1, maxQueued: 1, maxQueuedPerAccount: 1 });
    await expect(queue.run('ana', () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await queue.run('ana', async () => 'ok')).toBe('ok');
    expect(queue.stats()).toMatchObject({ active: 0, queued: 0, accounts: 0 });
  });
});
