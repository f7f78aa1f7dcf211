import { describe, expect, it } from 'vitest';
import { lineStep, orderStep } from './arrow-keys';

describe('arrow keys along the line (issue 43)', () => {
  it('left to right: ← and ↑ move earlier, → and ↓ later; other keys do not move', () => {
    expect(
      ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown', 'Home', ' ', 'a'].map((key) => orderStep(key, false)),
    ).toEqual([-1, -1, 1, 1, 0, 0, 0]);
  });

  it('right to left (Arabic): → moves towards the start of the line, earlier; ← later; ↑ and ↓ as ever', () => {
    expect(orderStep('ArrowRight', true)).toBe(-1);
    expect(orderStep('ArrowLeft', true)).toBe(1);
    expect(orderStep('ArrowUp', true)).toBe(-1);
    expect(orderStep('ArrowDown', true)).toBe(1);
    expect(orderStep('End', true)).toBe(0);
  });

  it('a strip of slides reads only ← and →, mirrored right to left', () => {
    expect(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].map((key) => lineStep(key, false))).toEqual([
      -1, 1, 0, 0,
    ]);
    expect(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].map((key) => lineStep(key, true))).toEqual([
      1, -1, 0, 0,
    ]);
    // No negative zero for a key that does not move (Object.is tells them apart).
    expect(Object.is(lineStep('ArrowUp', true), 0)).toBe(true);
  });
});
