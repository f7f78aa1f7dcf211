import { describe, expect, it } from 'vitest';
import { partText, placeOf, workCountText, workName } from './series-words';

describe('partText', () => {
  it('says which part of how many', () => {
    expect(partText(3, 12)).toBe('Part 3 of');
    expect(partText(1, 1)).toBe('Part 1 of');
    expect(partText(1204, 2000)).toBe('Part 1,204 of');
  });

  it('says nothing it cannot know or that cannot be', () => {
    expect(partText(undefined, 4)).toBeNull();
    expect(partText(2, undefined)).toBeNull();
    expect(partText(0, 4)).toBeNull();
    expect(partText(5, 4)).toBeNull();
    expect(partText(1.5, 4)).toBeNull();
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
