import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { InsightsDay } from '@share-arts/contract';
import type { ReactNode } from 'react';
import { renderToStaticMarkup as renderBare } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DailyCharts, POST_METRICS, SourcesTable } from './insights-view';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });
const renderToStaticMarkup = (element: ReactNode) => renderBare(<I18nProvider i18n={i18n}>{element}</I18nProvider>);

const day = (date: string, views: number, likes = 0): InsightsDay => ({
  day: date,
  views,
  likes,
  saves: 0,
  collections: 0,
});

describe('the insights charts', () => {
  it('draw a picture hidden from screen readers, and the same numbers as a real table', () => {
    const html = renderToStaticMarkup(
      <DailyCharts daily={[day('2026-12-06', 0), day('2026-12-07', 2, 1)]} metrics={POST_METRICS} days={7} />,
    );
    expect(html).toContain('<svg');
    expect(html).toMatch(/<svg[^>]*aria-hidden="true"/);
    expect(html).toContain('<caption>Per day, the last 7 days (UTC)</caption>');
    expect(html).toContain('<th scope="col">Views</th>');
    // Today's row: 2 views, 1 like; a bar per chart and day with a count (the views' and the likes' today).
    expect(html).toMatch(/<th scope="row">[^<]*7<\/th><td>2<\/td><td>1<\/td>/);
    expect(html.match(/<rect/g)).toHaveLength(2);
    // Visually hidden until "Show as a table", but in the page for screen readers.
    expect(html).toContain('class="visually-hidden"');
    expect(html).toContain('aria-expanded="false"');
  });

  it('list where views came from, sites by name', () => {
    const html = renderToStaticMarkup(
      <SourcesTable
        title="Where its views came from"
        sources={[
          { source: 'home', host: null, views: 3 },
          { source: 'external', host: 'blog.example.org', views: 1 },
        ]}
      />,
    );
    expect(html).toContain('Home');
    expect(html).toContain('Other sites<span');
    expect(html).toContain('blog.example.org');
    expect(html).toContain('75%');
  });
});
