import { describe, expect, it } from 'vitest';
import type { EventBus, LiveEvent } from '../live/live.events.js';
import { createSearchCache, type SearchHit } from './posts.cache.js';

/** The bus as the server's processes see it: every event reaches every subscriber. */
function createLocalBus(): EventBus & { publish(event: LiveEvent): void } {
  const subscribers: ((event: LiveEvent) => void)[] = [];
  return {
    subscribe: (onEvent) => void subscribers.push(onEvent),
    publish: (event) => subscribers.forEach((onEvent) => onEvent(event)),
    close: async () => {},
  };
}

/** A read that answers when told to, counting how often it was asked. */
function controlledRead() {
  const answers: ((hits: SearchHit[]) => void)[] = [];
  return {
    answers,
    load: () => new Promise<SearchHit[]>((resolve) => answers.push(resolve)),
  };
}

const hit = (id: string): SearchHit => ({ id, rank: 1, time: 0 });

describe('the search cache', () => {
  it('lets concurrent readers of one search share a single read', async () => {
    const cache = createSearchCache({ bus: createLocalBus() });
    const read = controlledRead();
    const waiting = Array.from({ length: 50 }, () => cache.hits('light', read.load));
    expect(read.answers).toHaveLength(1);
    read.answers[0]!([hit('a')]);
    for (const hits of await Promise.all(waiting)) expect(hits).toEqual([hit('a')]);
    expect(await cache.hits('light', read.load)).toEqual([hit('a')]);
    expect(read.answers).toHaveLength(1);
  });

  it('never lets a reader after a new post join, or keep, a read that began before it', async () => {
    const bus = createLocalBus();
    const cache = createSearchCache({ bus });
    const read = controlledRead();
    const before = cache.hits('light', read.load);
    bus.publish({ e: 'p', p: 'new-post', a: 'author' });
    const after = cache.hits('light', read.load);
    expect(read.answers).toHaveLength(2);
    read.answers[0]!([hit('old')]);
    read.answers[1]!([hit('new'), hit('old')]);
    expect(await before).toEqual([hit('old')]);
    expect(await after).toEqual([hit('new'), hit('old')]);
    expect(await cache.hits('light', read.load)).toEqual([hit('new'), hit('old')]);
    expect(read.answers).toHaveLength(2);
  });

  it('lets the next reader try again after a read fails', async () => {
    const cache = createSearchCache({ bus: createLocalBus() });
    await expect(cache.hits('light', () => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    );
    expect(await cache.hits('light', async () => [hit('a')])).toEqual([hit('a')]);
  });
});
