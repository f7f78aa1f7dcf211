import { describe, expect, it } from 'vitest';
import { applyMove, chapterRuns, dropMove, moveTo, stepMove, uniqueById } from './series-order';

const id = (value: string) => value;
const ids = ['a', 'b', 'c', 'd'];

describe('stepMove', () => {
  it('moves a work one place earlier by naming the work two before it', () => {
    expect(stepMove(ids, 2, -1)).toEqual({ postId: 'c', after: 'a' });
  });

  it('makes the second work the first with after: null', () => {
    expect(stepMove(ids, 1, -1)).toEqual({ postId: 'b', after: null });
  });

  it('moves a work one place later by naming the work after it', () => {
    expect(stepMove(ids, 1, 1)).toEqual({ postId: 'b', after: 'c' });
  });

  it('has no move past either end', () => {
    expect(stepMove(ids, 0, -1)).toBeNull();
    expect(stepMove(ids, 3, 1)).toBeNull();
    expect(stepMove(ids, 7, 1)).toBeNull();
  });

  it('gives the order the step meant once applied', () => {
    for (let index = 0; index < ids.length; index += 1) {
      for (const by of [-1, 1] as const) {
        const move = stepMove(ids, index, by);
        if (!move) continue;
        const expected = [...ids];
        [expected[index], expected[index + by]] = [expected[index + by]!, expected[index]!];
        expect(applyMove(ids, id, move)).toEqual(expected);
      }
    }
  });
});

describe('dropMove', () => {
  it('names the work the dragged one was dropped after', () => {
    expect(dropMove(ids, ['a', 'c', 'd', 'b'], 'b')).toEqual({ postId: 'b', after: 'd' });
  });

  it('makes a work dropped at the top the first', () => {
    expect(dropMove(ids, ['d', 'a', 'b', 'c'], 'd')).toEqual({ postId: 'd', after: null });
  });

  it('sends nothing for a drag that ended where it began', () => {
    expect(dropMove(ids, ids, 'c')).toBeNull();
    expect(dropMove(ids, ids, 'z')).toBeNull();
  });

  it('gives back the dropped order once applied', () => {
    const dropped = ['b', 'd', 'a', 'c'];
    const move = dropMove(['a', 'b', 'd', 'c'], dropped, 'a')!;
    expect(applyMove(['a', 'b', 'd', 'c'], id, move)).toEqual(dropped);
  });
});

describe('applyMove', () => {
  it('puts the work first when after is null', () => {
    expect(applyMove(ids, id, { postId: 'c', after: null })).toEqual(['c', 'a', 'b', 'd']);
  });

  it('puts the work right after its anchor, earlier or later', () => {
    expect(applyMove(ids, id, { postId: 'a', after: 'c' })).toEqual(['b', 'c', 'a', 'd']);
    expect(applyMove(ids, id, { postId: 'd', after: 'a' })).toEqual(['a', 'd', 'b', 'c']);
  });

  it('leaves the order alone when the work or its anchor is not loaded', () => {
    expect(applyMove(ids, id, { postId: 'z', after: 'a' })).toEqual(ids);
    expect(applyMove(ids, id, { postId: 'a', after: 'z' })).toEqual(ids);
  });

  it('does not change the list it was given', () => {
    const before = [...ids];
    applyMove(ids, id, { postId: 'a', after: 'd' });
    expect(ids).toEqual(before);
  });
});

describe('moveTo', () => {
  it('moves an item to an index, clamped to the list', () => {
    expect(moveTo(ids, id, 'a', 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveTo(ids, id, 'c', -4)).toEqual(['c', 'a', 'b', 'd']);
    expect(moveTo(ids, id, 'a', 99)).toEqual(['b', 'c', 'd', 'a']);
  });
});

describe('chapterRuns', () => {
  const works = (chapters: (string | null)[]) => chapters.map((chapter, index) => ({ id: `w${index}`, chapter }));
  const runs = (chapters: (string | null)[]) =>
    chapterRuns(works(chapters), (work) => work.chapter).map((run) => [run.chapter, run.start, run.items.length]);

  it('is one run without a heading when no work names a chapter', () => {
    expect(runs([null, null, null])).toEqual([[null, 0, 3]]);
  });

  it('starts a chapter at the first work naming it; works without one stay in it', () => {
    expect(runs(['March', null, null, 'April', null])).toEqual([
      ['March', 0, 3],
      ['April', 3, 2],
    ]);
  });

  it('keeps works naming the same chapter in one run', () => {
    expect(runs(['Issue 1', 'Issue 1', 'Issue 2', 'Issue 2'])).toEqual([
      ['Issue 1', 0, 2],
      ['Issue 2', 2, 2],
    ]);
  });

  it('keeps the works before the first chapter in a run without a heading', () => {
    expect(runs([null, 'Issue 1', null])).toEqual([
      [null, 0, 1],
      ['Issue 1', 1, 2],
    ]);
  });

  it('treats a blank chapter as none, and trims the names', () => {
    expect(runs(['  One ', '   ', 'One'])).toEqual([['One', 0, 3]]);
  });

  it('has no runs for no works', () => {
    expect(runs([])).toEqual([]);
  });
});

describe('uniqueById', () => {
  it('keeps the first of each id, in order', () => {
    expect(uniqueById(['a', 'b', 'a', 'c', 'b'], id)).toEqual(['a', 'b', 'c']);
  });
});
