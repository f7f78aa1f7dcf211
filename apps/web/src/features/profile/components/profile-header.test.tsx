import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { User } from '@share-arts/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { sessionKeys } from '../../../lib/session';
import { ProfileHeader } from './profile-header';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const viewerOf = (me: User | null) => {
  const client = new QueryClient();
  client.setQueryData(sessionKeys.currentUser(), me);
  return client;
};

const render = (user: User, me: User | null = null) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={viewerOf(me)}>
        <MemoryRouter>
          <ProfileHeader user={user} isOwn={false} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );

const local: User = {
  _id: 'u1',
  username: 'mira',
  firstName: 'Mira',
  lastName: 'Okafor',
  email: '',
  userPhoto: '/media/mira.jpg',
  bio: 'Paints the sea',
  link: 'https://mira.example/',
  followers: [],
  following: [],
  followerCount: 2,
  followingCount: 7,
  postCount: 12,
  bookmarks: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  worksSignedInOnly: false,
  viewer: { follows: false, followsYou: false, blocked: false, muted: false },
} as unknown as User;

const handle = `${'b'.repeat(30)}@${'long-server-name'.repeat(2)}.example`;
const remote: User = {
  ...local,
  _id: 'r1',
  username: handle,
  firstName: 'Bob Remote',
  lastName: '',
  link: 'https://pixelfed.example/bob',
  followingCount: 0,
  remote: { handle, url: 'https://pixelfed.example/bob' },
};

describe('ProfileHeader of someone on another server', () => {
  it('shows their whole handle, breaking before the server, and links out to their profile there', () => {
    const html = render(remote);
    expect(html).toContain(`@${'b'.repeat(30)}<wbr/>@${'long-server-name'.repeat(2)}.example`);
    expect(html).toMatch(
      /<a[^>]*href="https:\/\/pixelfed.example\/bob"[^>]*target="_blank"[^>]*rel="noopener nofollow"[^>]*>.*View on pixelfed.example/,
    );
    // Their profile there stands for their link: shown once.
    expect(html.match(/href="https:\/\/pixelfed.example\/bob"/g)).toHaveLength(1);
  });

  it('offers no following from another server and no following count, which are theirs', () => {
    const html = render(remote);
    expect(html).not.toContain('Follow from your server');
    expect(html).not.toContain('following</li>');
    expect(html).toContain('aria-label="Follow"');
  });

  it('says Requested while their server has not accepted the follow', () => {
    const me = { ...local, _id: 'me', username: 'ann' } as User;
    const html = render({ ...remote, viewer: { ...remote.viewer, follows: true, requested: true } }, me);
    expect(html).toContain('aria-label="Requested"');
    expect(html).toContain('Cancel request');
    expect(html).toContain('aria-pressed="true"');
  });

  it('keeps an account here as it was: its link, its counts, and following from another server', () => {
    const html = render(local);
    expect(html).toContain('@mira');
    expect(html).not.toContain('<wbr/>');
    expect(html).toContain('Follow from your server');
    expect(html).toContain('href="https://mira.example/"');
    expect(html).toContain('following</li>');
    expect(html).not.toContain('View on');
  });

  it('links nowhere out when the other server named no http(s) profile', () => {
    const html = render({ ...remote, remote: { handle, url: 'javascript:alert(1)' } });
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('View on');
    expect(html).not.toContain('Follow from your server');
  });
});
