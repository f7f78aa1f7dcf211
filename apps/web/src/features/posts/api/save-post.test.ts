import type { Picture } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { changedAlts } from './save-post';

const picture = (id: string, alt: string) => ({ media: { _id: id, alt } as Picture, alt });

describe('the alt texts an edit sends (issue 41)', () => {
  it('are those typed that differ from the pictures’ own, trimmed, in order', () => {
    expect(
      changedAlts([
        picture('a', 'A moth'),
        { ...picture('b', 'Its wing'), alt: '  The left wing  ' },
        { ...picture('c', 'Sketch'), alt: ' Sketch ' },
        { ...picture('d', 'Lines'), alt: '' },
      ]),
    ).toEqual([
      { mediaId: 'b', alt: 'The left wing' },
      { mediaId: 'd', alt: '' },
    ]);
    expect(changedAlts([])).toEqual([]);
  });
});
