import type { Picture } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import type { DraftPicture } from './picture-draft';
import { draftBody, isBlank } from './use-draft-autosave';

const RIGHTS = {
  contentWarning: null,
  commentPolicy: 'everyone',
  licence: 'all-rights-reserved',
  aiGenerated: false,
  downloadable: false,
} as const;
const noSeries = { seriesId: '', chapter: '', set: () => {}, applyTo: () => {} };

const item = (key: string, media?: string, alt = ''): DraftPicture => ({
  key,
  name: `${key}.png`,
  previewUrl: 'blob:x',
  status: media ? 'ready' : 'uploading',
  progress: media ? 1 : 0.5,
  alt,
  ...(media ? { media: { _id: media, alt: '' } as Picture } : {}),
});

describe('what the composer keeps as a draft', () => {
  it('is the uploaded pictures in order with their alt texts, the words, the rights and the series', () => {
    const body = draftBody({
      content: 'Half a moth',
      items: [item('a', 'm1', ' dawn '), item('b'), item('c', 'm2')],
      processItems: [item('p', 'm3', ' sketch '), item('q')],
      rights: RIGHTS,
      series: { ...noSeries, seriesId: 's1', chapter: ' Issue 2 ' },
    });
    expect(body).toEqual({
      content: 'Half a moth',
      pictures: [
        { mediaId: 'm1', alt: 'dawn' },
        { mediaId: 'm2', alt: '' },
      ],
      processPictures: [{ mediaId: 'm3', alt: 'sketch' }],
      rights: RIGHTS,
      seriesId: 's1',
      chapter: 'Issue 2',
    });
  });

  it('is nothing worth saving until something is typed, uploaded or chosen', () => {
    const blank = draftBody({ content: '  ', items: [item('a')], rights: RIGHTS, series: noSeries });
    expect(isBlank(blank)).toBe(true);
    expect(isBlank({ ...blank, content: 'x' })).toBe(false);
    expect(isBlank({ ...blank, rights: { ...RIGHTS, licence: 'cc-by' } })).toBe(false);
    expect(isBlank({ ...blank, seriesId: 's1' })).toBe(false);
    expect(isBlank({ ...blank, processPictures: [{ mediaId: 'm3', alt: '' }] })).toBe(false);
  });
});
