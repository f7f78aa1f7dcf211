/**
 * Justified rows (the layout of Flickr's justified-layout, Google Photos, Cara): every picture at its own
 * shape, the pictures of a row at one height, each full row exactly as wide as the grid. Pure arithmetic on
 * the pictures' aspect ratios, so the boxes are known before any file loads: nothing moves as they arrive.
 */

/** The shapes a grid box may take: beyond them the picture sits whole inside its box on a mat, never cropped. */
export const GRID_RATIO_LIMITS = { portrait: 1 / 2, landscape: 4 } as const;

export interface JustifiedRow {
  /** Index of the row's first item in the input. */
  start: number;
  /** The row's items' box ratios (width ÷ height), in order. */
  ratios: number[];
  /** The row's height in CSS pixels. */
  height: number;
  /** A row closed by the end of the list rather than by the width: drawn at the target height, not stretched. */
  last: boolean;
}

export function boxRatio(size: { width: number; height: number }): number {
  const ratio = size.width > 0 && size.height > 0 ? size.width / size.height : 1;
  return Math.min(GRID_RATIO_LIMITS.landscape, Math.max(GRID_RATIO_LIMITS.portrait, ratio));
}

/**
 * The row height to aim for at a grid width: about 280 px on wide screens, two to three works a row on a
 * phone (a 343 px grid: ~137 px, so three squares or two landscapes).
 */
export function targetRowHeight(width: number): number {
  if (width < 640) return Math.max(96, width / 2.5);
  if (width < 900) return 220;
  return 280;
}

/**
 * Splits `ratios` into rows for a grid `width` wide with `gap` between boxes. A row takes works until it is
 * at least as wide as the grid at the target height, then keeps the last one or leaves it for the next row,
 * whichever height comes closer to the target; the row is then scaled to the width exactly.
 */
export function justifiedRows(ratios: readonly number[], width: number, gap: number, target: number): JustifiedRow[] {
  const rows: JustifiedRow[] = [];
  if (width <= 0) return rows;
  const heightFor = (sum: number, count: number) => (width - gap * (count - 1)) / sum;
  let start = 0;
  let sum = 0;
  for (let index = 0; index < ratios.length; index += 1) {
    const ratio = ratios[index] ?? 1;
    const count = index - start + 1;
    const withIt = heightFor(sum + ratio, count);
    if (withIt > target) {
      sum += ratio;
      continue;
    }
    // Full at the target height: keep this work, or close the row before it if that comes closer.
    const without = count > 1 ? heightFor(sum, count - 1) : Infinity;
    if (Math.abs(without - target) < Math.abs(withIt - target)) {
      rows.push({ start, ratios: ratios.slice(start, index) as number[], height: without, last: false });
      start = index;
      sum = ratio;
      // The work left over may fill a row on its own (a panorama on a phone).
      const alone = heightFor(ratio, 1);
      if (alone <= target) {
        rows.push({ start, ratios: [ratio], height: alone, last: false });
        start = index + 1;
        sum = 0;
      }
    } else {
      rows.push({ start, ratios: ratios.slice(start, index + 1) as number[], height: withIt, last: false });
      start = index + 1;
      sum = 0;
    }
  }
  if (start < ratios.length) {
    rows.push({ start, ratios: ratios.slice(start) as number[], height: target, last: true });
  }
  return rows;
}
