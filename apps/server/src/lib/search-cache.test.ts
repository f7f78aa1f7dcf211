import { describe, expect, it } from 'vitest';
import { createSearchCache, type ChangeFeed } from './search-cache.js';

/** A change: `post` for one that changes the matches, `other` for one that does not. */
type Change = 'post' | 'other';

/** The bus as the server's processes see it: every event reaches every subscriber. */
function createLocalBus(): ChangeFeed<Change> & { publish(event: Change): void; resume(): void } {
  const subscribers: { onEvent: (event: Change) => void; onResume?: () => void }[] = [];
  return {
    subscribe: (onEvent, onResume) => void subscribers.push({ onEvent, onResume }),
    publish: (event) => subscribers.forEach(({ onEvent }) => onEvent(event)),
    resume: () => subscribers.forEach(({ onResume }) => onResume?.()),
  };
}

interface SearchHit {
  id: string;
  rank: number;
  time: number;
}

const searchCache = (bus: ChangeFeed<Change>) =>
  createSearchCache<SearchHit, Change>({ bus, changes: (event) => event === 'post' });

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
    const cache = searchCache(createLocalBus());
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
    const cache = searchCache(bus);
    const read = controlledRead();
    const before = cache.hits('light', read.load);
    bus.publish('post');
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
    const cache = searchCache(createLocalBus());
    await expect(cache.hits('light', () => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    );
    expect(await cache.hits('light', async () => [hit('a')])).toEqual([hit('a')]);
  });

  it('keeps its matches through changes that cannot affect them, and drops them after events were lost', async () => {
    const bus = createLocalBus();
    const cache = searchCache(bus);
    let reads = 0;
    const load = async () => [hit(`read ${++reads}`)];
    expect(await cache.hits('light', load)).toEqual([hit('read 1')]);
    bus.publish('other');
    expect(await cache.hits('light', load)).toEqual([hit('read 1')]);
    bus.resume();
    expect(await cache.hits('light', load)).toEqual([hit('read 2')]);
  });
});
