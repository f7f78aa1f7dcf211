import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { ApiError } from '../../../lib/api-client';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { remoteQuery, type RemoteQuery } from '../lib/remote-query';
import { RemoteLookup, SIGN_IN_TO_LOOK_UP, type LookupState } from './remote-lookup';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

/** The lookup's state as TanStack Query's mutation gives it (only what the view reads). */
const state = (fields: Partial<LookupState>): LookupState => ({
  variables: undefined,
  isPending: false,
  isError: false,
  error: null,
  mutate: () => {},
  ...fields,
});

const render = (query: RemoteQuery, lookup: LookupState) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={['/search?q=x']}>
        <RemoteLookup query={query} lookup={lookup} />
      </MemoryRouter>
    </I18nProvider>,
  );

const bob = remoteQuery('@bob@pixelfed.example')!;

describe('the search page’s lookup on another server', () => {
  it('offers one result naming the handle and its server', () => {
    const html = render(bob, state({}));
    expect(html).toContain('Look up @bob@pixelfed.example on pixelfed.example');
    expect(html).not.toContain('role="status"');
    expect(html).not.toContain('role="alert"');
  });

  it('offers a pasted address with the address under it', () => {
    const html = render(remoteQuery('https://mastodon.example/@bob/1')!, state({}));
    expect(html).toContain('Look up this address on mastodon.example');
    expect(html).toContain('mastodon.example/@bob/1');
  });

  it('says Looking… while it looks', () => {
    const html = render(bob, state({ variables: bob.q, isPending: true }));
    expect(html).toContain('role="status"');
    expect(html).toContain('Looking…');
    expect(html).toContain('aria-disabled="true"');
  });

  it('shows the server’s sentence in place when nothing was found', () => {
    const sentence = 'We found nobody at @bob@pixelfed.example. Check the handle or the address.';
    const html = render(bob, state({ variables: bob.q, isError: true, error: new ApiError(404, sentence) }));
    expect(html).toMatch(/role="alert"[^>]*>We found nobody at @bob@pixelfed.example/);
  });

  it('asks a visitor whose session ended to sign in, and leads there', () => {
    const html = render(bob, state({ variables: bob.q, isError: true, error: new ApiError(401, 'Unauthorized') }));
    expect(html).toContain(i18n._(SIGN_IN_TO_LOOK_UP));
    expect(html).toContain('Sign in</a>');
  });

  it('shows no state of the lookup of another text', () => {
    const html = render(bob, state({ variables: '@ann@other.example', isError: true, error: new ApiError(404, 'x') }));
    expect(html).not.toContain('role="alert"');
  });
});
