import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { PersonSummary } from '@share-arts/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { safetyKeys } from '../api/safety-keys';
import { AccountList } from './account-list';
import { RemoteBlockButton } from './remote-block-button';

const local: PersonSummary = {
  _id: 'u1',
  username: 'mira',
  firstName: 'Mira',
  lastName: 'Okafor',
  userPhoto: '/media/mira.jpg',
};

const remote = {
  _id: 'r1',
  username: 'bob@mastodon.example',
  firstName: 'Bob Remote',
  lastName: '',
  userPhoto: '/media/defaults/default-avatar.png',
  remote: { handle: 'bob@mastodon.example', url: 'https://mastodon.example/@bob' },
};

/** Settings' list of blocked people, its first page already read. */
function renderBlocks(users: PersonSummary[]) {
  const client = new QueryClient();
  client.setQueryData(safetyKeys.accounts('blocks'), { pages: [{ users, nextCursor: null }], pageParams: [null] });
  return renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <AccountList kind="blocks" />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('Settings: blocked people here and on other servers (issue 39)', () => {
  it('names someone on another server by their handle, linking out to their server, with Unblock', () => {
    const html = renderBlocks([remote, local]);
    expect(html).toContain('href="https://mastodon.example/@bob"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('@bob@mastodon.example');
    expect(html).toContain('aria-label="Unblock @bob@mastodon.example"');
    // Never a page here for them.
    expect(html).not.toContain('href="/bob@mastodon.example"');
    // Someone here still links to their profile.
    expect(html).toContain('href="/mira"');
    expect(html).toContain('aria-label="Unblock @mira"');
  });

  it('drops a profile link that is not http(s)', () => {
    const html = renderBlocks([{ ...remote, remote: { ...remote.remote, url: 'javascript:alert(1)' } }]);
    expect(html).not.toContain('javascript:');
    expect(html).toContain('@bob@mastodon.example');
  });
});

describe("the followers dialog's Block for someone on another server", () => {
  it('is a button naming them, which opens the confirm first (nothing is sent on render)', () => {
    const html = renderToStaticMarkup(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient()}>
          <RemoteBlockButton person={remote} />
        </QueryClientProvider>
      </I18nProvider>,
    );
    expect(html).toContain('aria-label="Block @bob@mastodon.example"');
    expect(html).toContain('>Block</button>');
    expect(html).not.toContain('alertdialog');
  });
});
