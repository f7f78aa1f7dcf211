import { i18n } from '@lingui/core';
import type { SearchResponse } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { dropdownOptions, dropdownStatus } from './dropdown-options';
import { remoteQuery } from './remote-query';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

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
      '1 person, 2 tags, and 1 post. Use the arrow keys to choose.',
    );
    expect(dropdownStatus({ ...base, people: 0, tags: 0, posts: 3 })).toBe(
      '0 people and 3 posts. Use the arrow keys to choose.',
    );
  });

  it('offers the lookup of a handle first, then what matched here, with its own address for the search page', () => {
    const remote = remoteQuery('@bob@pixelfed.example');
    const { options } = dropdownOptions(
      '@bob@pixelfed.example',
      { users: [user], posts: [], nextCursor: null },
      remote,
    );
    expect(options.map((option) => [option.kind, option.to])).toEqual([
      ['lookup', '/search?q=%40bob%40pixelfed.example&lookup=1'],
      ['user', '/mira'],
      ['all', '/search?q=%40bob%40pixelfed.example'],
    ]);
  });

  it('offers the lookup alone for a pasted address, before any answer, and leaves what matched here out', () => {
    const remote = remoteQuery('https://mastodon.example/@bob/1');
    expect(dropdownOptions('', undefined, remote).options.map((option) => option.kind)).toEqual(['lookup']);
    const answered = dropdownOptions(
      'https://mastodon.example/@bob/1',
      { users: [user], posts: [post], nextCursor: null },
      remote,
    );
    expect(answered.options.map((option) => option.kind)).toEqual(['lookup', 'all']);
    expect(answered.people).toEqual([]);
  });

  it('links a person on another server to their profile here, the @ kept readable', () => {
    const bob = { ...user, _id: 'u2', username: 'bob@pixelfed.example' };
    const { options } = dropdownOptions('bob', { users: [bob], posts: [], nextCursor: null });
    expect(options[0]?.to).toBe('/bob@pixelfed.example');
  });

  it('announces the lookup it offers', () => {
    const base = { shown: true, q: 'x', empty: false, expanded: true, remote: remoteQuery('bob@pixelfed.example') };
    expect(dropdownStatus({ ...base, people: 0, posts: 0 })).toBe(
      'Look up @bob@pixelfed.example on pixelfed.example. Press Enter to look it up.',
    );
    expect(dropdownStatus({ ...base, people: 1, posts: 0 })).toBe(
      'Look up @bob@pixelfed.example on pixelfed.example, or 1 person and 0 posts. Use the arrow keys to choose.',
    );
  });
});
