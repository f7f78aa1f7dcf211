import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { followShadow } from '../api/follow-shadow';
import { FollowButton } from './follow-button';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

type Person = Parameters<typeof FollowButton>[0]['user'];

const render = (user: Person) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <FollowButton user={user} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );

const nameOf = (html: string) => /aria-label="([^"]+)"/.exec(html)?.[1];

const remote = { handle: 'bob@pixelfed.example', url: 'https://pixelfed.example/bob' };

afterEach(() => {
  followShadow.clear('r1', 'follows');
  followShadow.clear('u1', 'follows');
});

describe('FollowButton', () => {
  it('is Follow, then Following, for an account here', () => {
    expect(nameOf(render({ _id: 'u1', viewer: { follows: false } }))).toBe('Follow');
    expect(nameOf(render({ _id: 'u1', viewer: { follows: true } }))).toBe('Following');
  });

  it('is Requested, pressed, while the server of someone on another server has not accepted', () => {
    const html = render({ _id: 'r1', viewer: { follows: true, requested: true }, remote });
    expect(nameOf(html)).toBe('Requested');
    expect(html).toContain('aria-pressed="true"');
    expect(html).toContain('Cancel request');
    expect(nameOf(render({ _id: 'r1', viewer: { follows: true }, remote }))).toBe('Following');
  });

  it('shows a follow on its way as Requested for someone on another server, as Following for an account here', () => {
    followShadow.set('r1', { follows: true });
    followShadow.set('u1', { follows: true });
    expect(nameOf(render({ _id: 'r1', viewer: { follows: false }, remote }))).toBe('Requested');
    expect(nameOf(render({ _id: 'u1', viewer: { follows: false } }))).toBe('Following');
  });

  it('shows a cancelled request on its way as Follow', () => {
    followShadow.set('r1', { follows: false });
    expect(nameOf(render({ _id: 'r1', viewer: { follows: true, requested: true }, remote }))).toBe('Follow');
  });
});
