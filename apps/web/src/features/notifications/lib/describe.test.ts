import { i18n } from '@lingui/core';
import type { Notification } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { actorsPhrase, describeNotification, externalTarget, notificationTarget } from './describe';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const person = (username: string) => ({ _id: `id-${username}`, username, firstName: '', lastName: '', userPhoto: '' });
const people = (...names: string[]) => names.map(person);

function group(overrides: Partial<Notification>): Notification {
  return {
    key: 'like:p1',
    kind: 'like',
    actors: people('ana'),
    actorCount: 1,
    post: { _id: 'p1', content: 'A study', postPic: '/media/p.jpg' },
    comment: null,
    createdAt: '2026-01-01T00:00:00Z',
    read: false,
    ...overrides,
  };
}

describe('actorsPhrase', () => {
  it('names up to three people, and counts the rest', () => {
    expect(actorsPhrase(people('ana'), 1)).toBe('ana');
    expect(actorsPhrase(people('ana', 'theo'), 2)).toBe('ana and theo');
    expect(actorsPhrase(people('ana', 'theo', 'sana'), 3)).toBe('ana, theo and sana');
    expect(actorsPhrase(people('ana', 'theo', 'sana'), 4)).toBe('ana, theo and 2 others');
    expect(actorsPhrase(people('ana', 'theo', 'sana'), 40)).toBe('ana, theo and 38 others');
    expect(actorsPhrase(people('ana'), 2)).toBe('ana and 1 other');
  });
});

describe('describeNotification and notificationTarget', () => {
  it('says what happened and leads to the post, its comments or the follower', () => {
    const likes = group({ actors: people('ana', 'theo', 'sana'), actorCount: 4 });
    expect(describeNotification(likes)).toBe('ana, theo and 2 others liked your post');
    expect(notificationTarget(likes)).toBe('/posts/p1');
    const comment = group({ kind: 'comment', actors: people('kai'), comment: { _id: 'c1', content: 'Nice' } });
    expect(describeNotification(comment)).toBe('kai commented on your post');
    expect(notificationTarget(comment)).toBe('/posts/p1#comments');
    expect(describeNotification(group({ kind: 'upvote', actors: people('sana') }))).toBe('sana upvoted your comment');
    const follow = group({ kind: 'follow', actors: people('jules'), post: null });
    expect(describeNotification(follow)).toBe('jules started following you');
    expect(notificationTarget(follow)).toBe('/jules');
    const inPost = group({ kind: 'mention', actors: people('mo') });
    expect(describeNotification(inPost)).toBe('mo mentioned you in a post');
    expect(notificationTarget(inPost)).toBe('/posts/p1');
    const inComment = group({ kind: 'mention', actors: people('mo'), comment: { _id: 'c2', content: '@you look' } });
    expect(describeNotification(inComment)).toBe('mo mentioned you in a comment');
    expect(notificationTarget(inComment)).toBe('/posts/p1#comments');
    // A report's outcome: the server's sentence, naming nobody; the post if it is still there.
    const report = {
      _id: 'r1',
      targetType: 'post',
      reason: 'spam',
      outcome: 'dismiss',
      text: 'We reviewed it.',
    } as const;
    const resolved = group({ kind: 'report-resolved', actors: people('me'), report });
    expect(describeNotification(resolved)).toBe('We reviewed it.');
    expect(notificationTarget(resolved)).toBe('/posts/p1');
    expect(notificationTarget({ ...resolved, post: null })).toBe('/notifications');
  });
});

describe('a work added to a followed series (issue 41)', () => {
  it('names the series after the action, and leads to the work', () => {
    const series = { _id: 's1', slug: 'moth-diaries', title: 'Moth diaries', username: 'ana' };
    const added = group({ kind: 'series-work', key: 'series-work:1', series });
    expect(describeNotification(added)).toBe('ana added a work to Moth diaries');
    expect(notificationTarget(added)).toBe('/posts/p1');
    expect(describeNotification({ ...added, series: null })).toBe('ana added a work to a series');
  });
});

describe('a work added to a public collection (issue 41)', () => {
  it('names the collection after the action, and leads to the collection', () => {
    const collection = { _id: 'c1', slug: 'figure-references', title: 'Figure references', username: 'sana' };
    const added = group({ kind: 'collection-work', key: 'collection-work:1', collection });
    expect(describeNotification(added)).toBe('ana added your work to Figure references');
    expect(notificationTarget(added)).toBe('/sana/collections/figure-references');
    // Made private or deleted since: no name, and the work itself.
    const gone = { ...added, collection: null };
    expect(describeNotification(gone)).toBe('ana added your work to a collection');
    expect(notificationTarget(gone)).toBe('/posts/p1');
  });
});

describe('a follow from another server (issue 39)', () => {
  const bob = {
    ...person('bob@mastodon.example'),
    firstName: 'Bob Remote',
    remote: { handle: 'bob@mastodon.example', url: 'https://mastodon.example/@bob' },
  };

  it('names them by their @handle and leads out to their profile on their server', () => {
    const follow = group({ kind: 'follow', actors: [bob], post: null });
    expect(describeNotification(follow)).toBe('@bob@mastodon.example started following you');
    expect(externalTarget(follow)).toBe('https://mastodon.example/@bob');
    // Nothing here is theirs: no page of this site is named for them.
    expect(notificationTarget(follow)).toBe('/notifications');
    expect(actorsPhrase([bob, person('ana')], 2)).toBe('@bob@mastodon.example and ana');
  });

  it('names them in a like or a boost of a post, which leads to the post here', () => {
    const like = group({ kind: 'like', actors: [bob, person('ana')], actorCount: 2 });
    expect(describeNotification(like)).toBe('@bob@mastodon.example and ana liked your post');
    expect(notificationTarget(like)).toBe('/posts/p1');
    expect(externalTarget(like)).toBeUndefined();
    const boost = group({ kind: 'boost', actors: [bob], actorCount: 1 });
    expect(describeNotification(boost)).toBe('@bob@mastodon.example boosted your post');
    expect(notificationTarget(boost)).toBe('/posts/p1');
  });

  it('leads nowhere outside for a page that is not http(s), nor for a follower here', () => {
    const odd = { ...bob, remote: { ...bob.remote, url: 'javascript:alert(1)' } };
    expect(externalTarget(group({ kind: 'follow', actors: [odd], post: null }))).toBeUndefined();
    expect(externalTarget(group({ kind: 'follow', actors: people('jules'), post: null }))).toBeUndefined();
  });
});

describe('an inquiry, its messages and its state (issue 42)', () => {
  it('says what happened, the state by name, and leads to the thread', () => {
    const inquiry = { _id: 'i1', state: 'open' } as const;
    const sent = group({ kind: 'inquiry', post: null, inquiry });
    expect(describeNotification(sent)).toBe('ana sent you an inquiry');
    expect(notificationTarget(sent)).toBe('/inquiries/i1');
    const message = group({ kind: 'inquiry-message', post: null, inquiry, actors: people('theo') });
    expect(describeNotification(message)).toBe('theo wrote in your inquiry');
    for (const [state, words] of [
      ['accepted', 'ana accepted your inquiry'],
      ['declined', 'ana declined your inquiry'],
      ['done', 'ana marked your inquiry done'],
    ] as const) {
      const changed = group({ kind: 'inquiry-state', post: null, inquiry: { _id: 'i1', state } });
      expect(describeNotification(changed)).toBe(words);
      expect(notificationTarget(changed)).toBe('/inquiries/i1');
    }
  });
});
