import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { Collection, CollectionPage } from '@share-arts/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { collectionKeys } from '../api/collection-keys';
import ProfileCollections from './profile-collections';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const collection = (fields: Partial<Collection> = {}): Collection => ({
  _id: 'c1',
  kind: 'collection',
  slug: 'figure-references',
  title: 'Figure references',
  description: '',
  visibility: 'public',
  owner: { _id: 'u1', username: 'sana', firstName: 'Sana', lastName: '', userPhoto: '' },
  cover: null,
  workCount: 12,
  createdAt: '2026-12-07T10:00:00.000Z',
  updatedAt: '2026-12-07T10:00:00.000Z',
  viewer: { isOwner: false },
  ...fields,
});

/** The tab as first drawn, the person's first page of collections already known. */
function render(page: CollectionPage, isOwn: boolean) {
  const client = new QueryClient();
  client.setQueryData(collectionKeys.list('sana'), { pages: [page], pageParams: [null] });
  return renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <ProfileCollections username="sana" isOwn={isOwn} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe('ProfileCollections, a profile’s Collections tab (issue 41)', () => {
  it('shows each collection as a card leading to its page, with its number of works', () => {
    const html = render({ collections: [collection()], nextCursor: null }, false);
    expect(html).toContain('href="/sana/collections/figure-references"');
    expect(html).toContain('Figure references');
    expect(html).toContain('12 works');
    expect(html).not.toContain('New collection');
    expect(html).not.toContain('More collections');
  });

  it('shows its owner Saved first and marks the private ones, and offers a new collection', () => {
    const saved = collection({ _id: 'saved', kind: 'saved', slug: 'saved', title: 'Saved', visibility: 'private' });
    const html = render(
      {
        collections: [saved, collection({ _id: 'c2', slug: 'mine', title: 'Mine', visibility: 'private' })],
        nextCursor: 'n',
      },
      true,
    );
    expect(html.indexOf('href="/sana/collections/saved"')).toBeLessThan(html.indexOf('href="/sana/collections/mine"'));
    expect(html.match(/aria-label="private"/g)).toHaveLength(2);
    expect(html).toContain('New collection');
    expect(html).toContain('More collections');
  });

  it('says so when a person has no public collections', () => {
    expect(render({ collections: [], nextCursor: null }, false)).toContain('@sana has no public collections yet.');
  });
});
