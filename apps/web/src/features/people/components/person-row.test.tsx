import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { PersonSummary, UserCard } from '@share-arts/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PersonRow } from './person-row';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const render = (person: PersonSummary | UserCard) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <PersonRow user={person} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );

const local: PersonSummary = {
  _id: 'u1',
  username: 'mira',
  firstName: 'Mira',
  lastName: 'Okafor',
  userPhoto: '/media/mira.jpg',
};

const remote: PersonSummary = {
  _id: 'r1',
  username: 'bob@mastodon.example',
  firstName: 'Bob Remote',
  lastName: '',
  userPhoto: '/media/defaults/default-avatar.png',
  remote: { handle: 'bob@mastodon.example', url: 'https://mastodon.example/@bob' },
};

describe('PersonRow of a follower (a summary, no follow state)', () => {
  it('links a follower here to their profile, by name and @username', () => {
    const html = render(local);
    expect(html).toContain('href="/mira"');
    expect(html).toContain('Mira Okafor');
    expect(html).toContain('@mira');
    expect(html).not.toContain('target="_blank"');
    // A summary has no follow state: no Follow button.
    expect(html).not.toContain('<button');
  });

  it('names a follower on another server by their @handle, and links out to their profile there', () => {
    const html = render(remote);
    expect(html).toContain('href="https://mastodon.example/@bob"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener nofollow ugc"');
    expect(html).toContain('Bob Remote');
    expect(html).toContain('@bob@mastodon.example');
    expect(html).toContain('opens in a new tab');
    // No link into this site: they have no profile here. The photo is this site's default one.
    expect(html).not.toContain('href="/');
    expect(html).toContain('src="/media/defaults/default-avatar.png"');
  });

  it('links nowhere when the remote server named no http(s) page', () => {
    const html = render({ ...remote, remote: { handle: 'bob@mastodon.example', url: 'javascript:alert(1)' } });
    expect(html).not.toContain('href=');
    expect(html).toContain('@bob@mastodon.example');
  });
});

describe('PersonRow of someone on another server whose works come here (a card)', () => {
  const card: UserCard = {
    ...remote,
    username: 'bob@pixelfed.example',
    remote: { handle: 'bob@pixelfed.example', url: 'https://pixelfed.example/bob' },
    bio: '',
    followers: [],
    following: [],
    followerCount: 1,
    followingCount: 0,
    postCount: 3,
    viewer: { follows: false, followsYou: false },
  };

  it('links to their profile here, the @ of the address kept, with a Follow button', () => {
    const html = render(card);
    expect(html).toContain('href="/bob@pixelfed.example"');
    expect(html).not.toContain('target="_blank"');
    expect(html).toContain('@bob<wbr/>@pixelfed.example');
    expect(html).toContain('aria-label="Follow"');
  });
});
