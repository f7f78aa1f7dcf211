import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { Notification } from '@share-arts/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { NotificationItem } from './notification-item';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const follow = (actor: Notification['actors'][number]): Notification => ({
  key: 'follow:n1',
  kind: 'follow',
  actors: [actor],
  actorCount: 1,
  post: null,
  comment: null,
  createdAt: '2026-01-01T00:00:00Z',
  read: false,
});

const render = (notification: Notification) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <MemoryRouter>
        <ul>
          <NotificationItem notification={notification} now={Date.parse('2026-01-01T00:05:00Z')} onOpen={() => {}} />
        </ul>
      </MemoryRouter>
    </I18nProvider>,
  );

describe('NotificationItem, a follow', () => {
  it('from here: the sentence leads to the follower’s profile', () => {
    const html = render(
      follow({ _id: 'u1', username: 'jules', firstName: 'Jules', lastName: '', userPhoto: '/media/j.jpg' }),
    );
    expect(html).toContain('href="/jules"');
    expect(html).toContain('jules</span> started following you');
    expect(html).not.toContain('target="_blank"');
  });

  it('from another server: their @handle, their name and server, and a link out to their profile there', () => {
    const html = render(
      follow({
        _id: 'r1',
        username: 'bob@mastodon.example',
        firstName: 'Bob Remote',
        lastName: '',
        userPhoto: '/media/defaults/default-avatar.png',
        remote: { handle: 'bob@mastodon.example', url: 'https://mastodon.example/@bob' },
      }),
    );
    expect(html).toContain('@bob@mastodon.example</span> started following you');
    expect(html).toContain('href="https://mastodon.example/@bob"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener nofollow ugc"');
    expect(html).toContain('Bob Remote · on mastodon.example');
    expect(html).toContain('src="/media/defaults/default-avatar.png"');
    expect(html).not.toContain('href="/');
  });
});
