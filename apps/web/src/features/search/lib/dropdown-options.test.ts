import type { SearchResponse } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { dropdownOptions, dropdownStatus } from './dropdown-options';

const user = { _id: 'u1', username: 'mira' } as NonNullable<SearchResponse['users']>[number];
const post = { _id: 'p1', content: 'Dusk #Landscape' } as NonNullable<SearchResponse['posts']>[number];

describe('the header dropdown', () => {
  it('lists people, then tags (to their page, in lower case), then posts, then all results', () => {
    const { options } = dropdownOptions('land', {
      users: [user],
      tags: [{ tag: 'landscape', postCount: 16 }],
      posts: [post],
      nextCursor: null,
    });
    expect(options.map((option) => [option.kind, option.to])).toEqual([
      ['user', '/mira'],
      ['tag', '/tags/landscape'],
      ['post', '/posts/p1'],
      ['all', '/search?q=land'],
    ]);
  });

  it('counts the tags in what it announces, and leaves them out when there are none', () => {
    const base = { shown: true, q: 'land', empty: false, expanded: true };
    expect(dropdownStatus({ ...base, people: 1, tags: 2, posts: 1 })).toBe(
      '1 person, 2 tags and 1 post. Use the arrow keys to choose.',
    );
    expect(dropdownStatus({ ...base, people: 0, tags: 0, posts: 3 })).toBe(
      '0 people and 3 posts. Use the arrow keys to choose.',
    );
  });
});
