/**
 * The arrow keys along the line (issue 43): what is earlier in reading order lies towards the line's start, which is
 * the left in English and the right in Arabic. A list moved with the keys (the composer's pictures, a series' or a
 * collection's works) and a strip of slides (the carousel) read the keys through these, so → goes towards the end of
 * the line on a left-to-right page and towards its start on a right-to-left one.
 */

/** Whether `element` is laid out right to left (it, or what it is in, says `dir="rtl"`). */
export function isRightToLeft(element: Element): boolean {
  return getComputedStyle(element).direction === 'rtl';
}

/** ←/→ as a step along the line: -1 towards its start (earlier), 1 towards its end (later), 0 for another key. */
export function lineStep(key: string, rightToLeft: boolean): -1 | 0 | 1 {
  if (key !== 'ArrowLeft' && key !== 'ArrowRight') return 0;
  return (key === 'ArrowRight') !== rightToLeft ? 1 : -1;
}

/**
 * An arrow key as a move in a list's order: ↑ earlier, ↓ later whatever the direction, and ← / → along the line
 * (lineStep). 0 for any other key.
 */
export function orderStep(key: string, rightToLeft: boolean): -1 | 0 | 1 {
  if (key === 'ArrowUp') return -1;
  if (key === 'ArrowDown') return 1;
  return lineStep(key, rightToLeft);
}
