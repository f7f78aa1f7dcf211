import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { partNumber, placeOf, workCountText, workName } from './series-words';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('partNumber', () => {
  it('says which part of how many', () => {
    expect(partNumber(3, 12)).toBe('3');
    expect(partNumber(1, 1)).toBe('1');
    expect(partNumber(1204, 2000)).toBe('1,204');
  });

  it('says nothing it cannot know or that cannot be', () => {
    expect(partNumber(undefined, 4)).toBeNull();
    expect(partNumber(2, undefined)).toBeNull();
    expect(partNumber(0, 4)).toBeNull();
    expect(partNumber(5, 4)).toBeNull();
    expect(partNumber(1.5, 4)).toBeNull();
  });
});

describe('placeOf', () => {
  it('reads a numeric position and count', () => {
    expect(placeOf({ position: 2, workCount: 9 })).toEqual({ position: 2, count: 9 });
  });

  it('ignores what is absent or not a number', () => {
    expect(placeOf({})).toEqual({ position: undefined, count: undefined });
    expect(placeOf({ position: '2', workCount: null })).toEqual({ position: undefined, count: undefined });
  });
});

describe('workCountText', () => {
  it('counts works', () => {
    expect(workCountText(0)).toBe('0 works');
    expect(workCountText(1)).toBe('1 work');
    expect(workCountText(10000)).toBe('10,000 works');
  });
});

describe('workName', () => {
  const picture = (alt: string) => ({ alt }) as never;

  it('names a work by its first picture’s alt text', () => {
    expect(workName({ content: 'words', picture: null, media: [picture(' A moth at dusk ')] })).toBe('A moth at dusk');
  });

  it('falls back to its first words, then to "Untitled work"', () => {
    expect(workName({ content: 'one two three four five six seven eight nine', picture: null, media: [] })).toBe(
      'one two three four five six seven eight…',
    );
    expect(workName({ content: '  ', picture: null, media: [picture('')] })).toBe('Untitled work');
  });
});
