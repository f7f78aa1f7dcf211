import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ProfilePosts } from './profile-posts';
import type { RemoteHome } from './remote-home';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const render = (username: string, remoteHome: RemoteHome | null) => {
  const client = new QueryClient();
  const html = renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <ProfilePosts username={username} isOwn={false} remoteHome={remoteHome} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
  return {
    html,
    queries: client
      .getQueryCache()
      .getAll()
      .map((query) => JSON.stringify(query.queryKey)),
  };
};

describe('ProfilePosts of someone on another server', () => {
  it('leads to their older works on their server, under their works here', () => {
    const { html } = render('bob@pixelfed.example', { host: 'pixelfed.example', url: 'https://pixelfed.example/bob' });
    expect(html).toMatch(
      /<a href="https:\/\/pixelfed.example\/bob" target="_blank" rel="noopener nofollow">Older works are on pixelfed.example/,
    );
  });

  it('asks for no pinned works (their pins are their server’s)', () => {
    const { queries } = render('bob@pixelfed.example', {
      host: 'pixelfed.example',
      url: 'https://pixelfed.example/bob',
    });
    // (A query with no username is never enabled.)
    expect(queries.filter((key) => key.includes('"pins"') && key.includes('bob@'))).toEqual([]);
  });

  it('shows an account here without the line, with its pins asked for', () => {
    const { html, queries } = render('mira', null);
    expect(html).not.toContain('Older works');
    expect(queries.some((key) => key.includes('"pins"') && key.includes('"username":"mira"'))).toBe(true);
  });
});
