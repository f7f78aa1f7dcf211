import type { Import, ImportItem } from '@share-arts/contract';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { renderToStaticMarkup as renderBare } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import {
  dateRange,
  formatEstimate,
  ImportPreviewView,
  ImportProgressView,
  ImportResultView,
  profileFound,
} from './import-views';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });
const renderToStaticMarkup = (node: ReactNode) => renderBare(<I18nProvider i18n={i18n}>{node}</I18nProvider>);

const base: Import = {
  _id: 'i1',
  source: 'instagram',
  state: 'ready',
  fileName: 'instagram.zip',
  bytes: 1024,
  preview: {
    works: 120,
    pictures: 310,
    skipped: 4,
    videos: 9,
    from: '2016-03-04T12:00:00+00:00',
    to: '2024-01-29T12:00:00+00:00',
    first: [{ caption: 'First sketch #ink', date: '2016-03-04T12:00:00+00:00', pictures: 3 }],
    profile: null,
  },
  options: { keepDates: true, hashtagsAsTags: true, markImported: false, profile: false },
  progress: {
    postsDone: 0,
    postsTotal: 124,
    picturesDone: 0,
    picturesTotal: 310,
    imported: 0,
    skipped: 0,
    estimateSeconds: null,
  },
  error: null,
  profile: null,
  createdAt: '2026-01-01T00:00:00+00:00',
  finishedAt: null,
};

const item = (fields: Partial<ImportItem>): ImportItem => ({
  position: 0,
  sourceId: 's',
  outcome: 'imported',
  postId: null,
  reason: null,
  caption: '',
  date: null,
  pictures: 1,
  ...fields,
});

describe('formatEstimate and dateRange', () => {
  it('says the time left in words a person reads at a glance', () => {
    expect(formatEstimate(null)).toBe('');
    expect(formatEstimate(20)).toBe('less than a minute left');
    expect(formatEstimate(60)).toBe('about 1 minute left');
    expect(formatEstimate(600)).toBe('about 10 minutes left');
    expect(formatEstimate(3 * 3600)).toBe('about 3 hours left');
  });

  it('spans the first and the last date, one date when they are the same day', () => {
    expect(dateRange('2016-03-04T12:00:00+00:00', '2024-01-29T12:00:00+00:00')).toBe('Mar 4, 2016 – Jan 29, 2024');
    expect(dateRange('2016-03-04T12:00:00+00:00', '2016-03-04T13:00:00+00:00')).toBe('Mar 4, 2016');
    expect(dateRange(null, null)).toBe('');
  });
});

describe('the preview', () => {
  it('shows how many works, their dates, the first few and the choices, the dates kept and hashtags as tags by default', () => {
    const html = renderToStaticMarkup(
      <ImportPreviewView item={base} options={base.options} onOptions={() => {}} onStart={() => {}} starting={false} />,
    );
    expect(html).toContain('From Instagram: 120 works with 310 pictures, Mar 4, 2016 – Jan 29, 2024.');
    expect(html).toContain('4 posts will be skipped');
    expect(html).toContain('9 videos will be left out');
    expect(html).toContain('First sketch #ink');
    expect(html).toMatch(/<input type="checkbox"[^>]*checked=""[^>]*\/><span>Keep the original dates/);
    expect(html).toMatch(/<input type="checkbox"[^>]*checked=""[^>]*\/><span>Turn caption hashtags into tags/);
    expect(html).not.toMatch(/checked=""[^>]*\/><span>Mark each work as imported/);
    expect(html).toContain('Import 120 works');
    expect(html).not.toContain('Use the bio and photo');
  });

  it("offers the archive's bio and photo, off by default, with the bio's first words", () => {
    const withProfile: Import = {
      ...base,
      preview: { ...base.preview, profile: { bio: 'Ink and harbours, drawn <daily>', photo: true } },
    };
    const html = renderToStaticMarkup(
      <ImportPreviewView
        item={withProfile}
        options={withProfile.options}
        onOptions={() => {}}
        onStart={() => {}}
        starting={false}
      />,
    );
    expect(html).toMatch(/<input type="checkbox"[^>]*\/><span>Use the bio and photo from the archive/);
    expect(html).not.toMatch(/checked=""[^>]*\/><span>Use the bio and photo/);
    // The bio is text: its "<" is escaped, never markup.
    expect(html).toContain(
      'The archive holds a bio, \u201cInk and harbours, drawn &lt;daily&gt;\u201d, and a profile photo',
    );
  });

  it('says what the archive holds when it is only a bio or only a photo', () => {
    expect(profileFound({ bio: 'Painter', photo: false })).toBe(
      'The archive holds a bio, \u201cPainter\u201d: chosen, it replaces yours.',
    );
    expect(profileFound({ bio: '', photo: true })).toBe(
      'The archive holds a profile photo: chosen, it replaces yours.',
    );
  });
});

describe('the progress', () => {
  it('shows a bar with posts and pictures done and the estimate, and that the page may be closed', () => {
    const running: Import = {
      ...base,
      state: 'running',
      progress: { ...base.progress, postsDone: 31, picturesDone: 80, estimateSeconds: 300 },
    };
    const html = renderToStaticMarkup(<ImportProgressView item={running} />);
    expect(html).toContain('<progress');
    expect(html).toContain('max="124"');
    expect(html).toContain('value="31"');
    expect(html).toContain('25% · 31 of 124 posts, 80 of 310 pictures · about 5 minutes left');
    expect(html).toContain('You can close this page');
  });
});

describe('the result', () => {
  it('links each imported work and says why each skipped post was skipped', () => {
    const done: Import = { ...base, state: 'done', progress: { ...base.progress, imported: 1, skipped: 1 } };
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <ImportResultView
          item={done}
          imported={[item({ postId: 'p1', caption: 'Harbour' })]}
          skipped={[
            item({ position: 1, outcome: 'skipped', caption: 'A reel', reason: 'a video: Share Arts keeps pictures' }),
          ]}
        />
      </MemoryRouter>,
    );
    expect(html).toContain('Done: 1 work imported from Instagram, 1 post skipped.');
    expect(html).toContain('href="/posts/p1"');
    expect(html).toContain('Harbour');
    expect(html).toContain('A reel');
    expect(html).toContain('a video: Share Arts keeps pictures');
  });

  it('says how many more there are past the first page', () => {
    const done: Import = { ...base, state: 'done', progress: { ...base.progress, imported: 150, skipped: 0 } };
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <ImportResultView item={done} imported={[item({ postId: 'p1', caption: 'Harbour' })]} skipped={[]} />
      </MemoryRouter>,
    );
    expect(html).toContain('and 149 more works in your profile');
  });

  it("says what the archive's profile did, and why its photo could not be used", () => {
    const done: Import = {
      ...base,
      state: 'done',
      progress: { ...base.progress, imported: 1 },
      profile: { bio: true, photo: false, problem: 'The profile photo could not be read: this file is not a picture.' },
    };
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <ImportResultView item={done} imported={[]} skipped={[]} />
      </MemoryRouter>,
    );
    expect(html).toContain('Your bio was set from the archive.');
    expect(html).toContain('The profile photo could not be read: this file is not a picture.');
  });

  it('says why a failed import stopped', () => {
    const failed: Import = { ...base, state: 'failed', error: 'The archive is no longer stored on the server.' };
    const html = renderToStaticMarkup(<ImportResultView item={failed} imported={[]} skipped={[]} />);
    expect(html).toContain('role="alert"');
    expect(html).toContain('The archive is no longer stored on the server.');
  });
});
