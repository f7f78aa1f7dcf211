import { describe, expect, it } from 'vitest';
import { boxRatio, justifiedRows, targetRowHeight } from './justified-rows';

const GAP = 4;
/** The width a row's boxes and gaps take at its height. */
const rowWidth = (row: { ratios: number[]; height: number }) =>
  row.ratios.reduce((sum, ratio) => sum + ratio * row.height, 0) + GAP * (row.ratios.length - 1);

describe('justifiedRows', () => {
  it('fills every row but the last to the width exactly, each at one height near the target', () => {
    const ratios = [0.8, 1.5, 1, 3, 0.67, 1.78, 0.5, 1, 1.33, 4, 0.75, 1.5, 0.56, 1];
    const rows = justifiedRows(ratios, 1000, GAP, 280);
    expect(rows.flatMap((row) => row.ratios)).toEqual(ratios);
    for (const row of rows.slice(0, -1)) {
      expect(row.last).toBe(false);
      expect(rowWidth(row)).toBeCloseTo(1000, 6);
      expect(row.height).toBeGreaterThan(180);
      expect(row.height).toBeLessThan(420);
    }
  });

  it('leaves the last row at the target height, not stretched', () => {
    const rows = justifiedRows([1, 1, 1, 1, 1], 1000, GAP, 280);
    const last = rows.at(-1)!;
    expect(last.last).toBe(true);
    expect(last.height).toBe(280);
    expect(rowWidth(last)).toBeLessThan(1000);
  });

  it('puts two or three works in a row on a phone', () => {
    const width = 343;
    const rows = justifiedRows([1, 1, 1, 1, 1, 1, 1.5, 1.5, 0.8, 0.8, 0.8, 1], width, GAP, targetRowHeight(width));
    for (const row of rows.slice(0, -1)) {
      expect(row.ratios.length).toBeGreaterThanOrEqual(2);
      expect(row.ratios.length).toBeLessThanOrEqual(3);
    }
  });

  it('gives a panorama wider than the grid at the target height a row of its own', () => {
    const rows = justifiedRows([1, 1, 1.2, 4, 1], 343, GAP, 137);
    expect(rows.map((row) => row.ratios)).toEqual([[1, 1, 1.2], [4], [1]]);
    expect(rows[1]!.height).toBeCloseTo(343 / 4, 6);
  });

  it('answers no rows before the grid has a width', () => {
    expect(justifiedRows([1, 2], 0, GAP, 280)).toEqual([]);
  });
});

describe('boxRatio', () => {
  it("keeps a picture's own shape, within 1:2 and 4:1", () => {
    expect(boxRatio({ width: 1600, height: 900 })).toBeCloseTo(16 / 9);
    expect(boxRatio({ width: 100, height: 1000 })).toBe(0.5);
    expect(boxRatio({ width: 6000, height: 1000 })).toBe(4);
    expect(boxRatio({ width: 0, height: 0 })).toBe(1);
  });
});
