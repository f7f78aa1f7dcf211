import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { Post, PostSeriesEntry } from '@share-arts/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { sessionKeys } from '../../../lib/session';
import { seriesKeys } from '../api/series-keys';
import { PostSeries } from './post-series';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const work = {
  _id: 'p2',
  content: 'Moth study two',
  userId: 'u1',
  username: 'ana',
  viewer: { liked: false, disliked: false, bookmarked: false, followsAuthor: false, isAuthor: false },
} as unknown as Post;

const entry = (fields: Partial<PostSeriesEntry> & Record<string, unknown> = {}): PostSeriesEntry => ({
  series: { _id: 's1', slug: 'moth-diaries', title: 'Moth diaries', username: 'ana' },
  chapter: null,
  previous: 'p1',
  next: 'p3',
  ...fields,
});

/** The bars as first drawn, with the work's series (and the viewer, when signed in) already known. */
function render(post: Post, entries: PostSeriesEntry[], viewer?: { _id: string; username: string }) {
  const client = new QueryClient();
  client.setQueryData(seriesKeys.ofPost(post._id), entries);
  client.setQueryData(sessionKeys.currentUser(), viewer ?? null);
  return renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <PostSeries post={post} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe('PostSeries, the series bars of a work’s page', () => {
  it('links the series and the works before and after it', () => {
    const html = render(work, [entry()]);
    expect(html).toContain('aria-label="Series Moth diaries"');
    expect(html).toContain('href="/ana/series/moth-diaries"');
    expect(html).toContain('rel="prev" href="/posts/p1"');
    expect(html).toContain('rel="next" href="/posts/p3"');
  });

  it('says "Part N of" when the server gives the place, "In" otherwise', () => {
    expect(render(work, [entry({ position: 3, workCount: 12 })])).toContain('Part 3 of');
    const without = render(work, [entry()]);
    expect(without).toContain('In');
    expect(without).not.toContain('Part ');
  });

  it('marks the ends of a series instead of linking nowhere', () => {
    const html = render(work, [entry({ previous: null, next: null })]);
    expect(html).toContain('First work');
    expect(html).toContain('Last work');
    expect(html).not.toContain('rel="prev"');
    expect(html).not.toContain('rel="next"');
  });

  it('names the chapter, and draws one bar per series', () => {
    const other = entry({ series: { _id: 's2', slug: 'night', title: 'Night', username: 'ana' }, chapter: 'Issue 2' });
    const html = render(work, [entry(), other]);
    expect(html.match(/<nav /g)).toHaveLength(2);
    expect(html).toContain('Issue 2');
  });

  it('gives the author Add to series and Remove, and nobody else', () => {
    const author = render({ ...work, viewer: { ...work.viewer, isAuthor: true } }, [entry()], {
      _id: 'u1',
      username: 'ana',
    });
    expect(author).toContain('Add to series');
    expect(author).toContain('aria-label="Remove from series Moth diaries"');
    const reader = render(work, [entry()], { _id: 'u2', username: 'theo' });
    expect(reader).not.toContain('Add to series');
    expect(reader).not.toContain('Remove');
  });

  it('shows nothing for a work from another server', () => {
    const remote = { ...work, origin: { host: 'pixelfed.example', url: 'https://pixelfed.example/p/1' } };
    expect(render(remote, [entry()])).toBe('');
  });
});
