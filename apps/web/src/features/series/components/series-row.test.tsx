import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { Series, SeriesPage } from '@share-arts/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { seriesKeys } from '../api/series-keys';
import { SeriesRow } from './series-row';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const series = (fields: Partial<Series> = {}): Series => ({
  _id: 's1',
  slug: 'moth-diaries',
  title: 'Moth diaries',
  description: '',
  owner: { _id: 'u1', username: 'ana', firstName: 'Ana', lastName: '', userPhoto: '' },
  cover: null,
  coverPostId: null,
  workCount: 12,
  followerCount: 0,
  createdAt: '2026-12-07T10:00:00.000Z',
  updatedAt: '2026-12-07T10:00:00.000Z',
  viewer: { follows: false, isOwner: false },
  ...fields,
});

/** The row as first drawn, the artist's first page of series already known. */
function render(page: SeriesPage, isOwn: boolean) {
  const client = new QueryClient();
  client.setQueryData(seriesKeys.list('ana'), { pages: [page], pageParams: [null] });
  return renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <SeriesRow username="ana" isOwn={isOwn} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe('SeriesRow, a profile’s series', () => {
  it('shows each series as a card leading to its page, with its number of works', () => {
    const html = render(
      { series: [series(), series({ _id: 's2', slug: 'one', title: 'One', workCount: 1 })], nextCursor: null },
      false,
    );
    expect(html).toContain('href="/ana/series/moth-diaries"');
    expect(html).toContain('Moth diaries');
    expect(html).toContain('12 works');
    expect(html).toContain('1 work<');
    expect(html).not.toContain('New series');
    expect(html).not.toContain('More series');
  });

  it('offers more series when there are more pages', () => {
    expect(render({ series: [series()], nextCursor: 'next' }, false)).toContain('More series');
  });

  it('draws nothing for an artist without series, but asks the owner to make one', () => {
    expect(render({ series: [], nextCursor: null }, false)).toBe('');
    const own = render({ series: [], nextCursor: null }, true);
    expect(own).toContain('New series');
    expect(own).toContain('Gather works into a series');
  });
});
