/**
 * The shapes and `sizes` a post's pictures are drawn at, shared by the web app (which draws them) and the
 * server (which writes the post page's `<link rel="preload">` into its HTML): only an identical `sizes` makes
 * the browser pick the very file that was preloaded. Dependency-free: the web's boot script ships it.
 *
 * A card gives a picture a box at its own aspect ratio, clamped between 4:5 portrait and 1.91:1 landscape
 * (Instagram's range): inside the range the picture fills its box; beyond it the box stops at the limit and
 * the whole picture sits inside it on a neutral mat, never cropped. A carousel's box takes the first
 * picture's clamped shape, and the others fit inside it.
 */
export const RATIO_LIMITS = { portrait: 4 / 5, landscape: 1.91 } as const;

export function aspectRatio(size: { width: number; height: number }): number {
  return size.width > 0 && size.height > 0 ? size.width / size.height : 1;
}

/** Width ÷ height of the box a card draws a picture of this shape in. */
export function clampedRatio(size: { width: number; height: number }): number {
  return Math.min(RATIO_LIMITS.landscape, Math.max(RATIO_LIMITS.portrait, aspectRatio(size)));
}

/**
 * A panorama: wider than a card's widest box. Beside the post's details on a wide screen it would be a thin
 * strip; the post page shows it across the page's width instead, the details below.
 */
export function isPanorama(ratio: number): boolean {
  return ratio > RATIO_LIMITS.landscape;
}

/**
 * The width ÷ height of the post page's artwork box: one picture at its own shape (fitted to the window, it
 * needs no mat), several at the first one's clamped shape, like a card's carousel.
 */
export function pageBoxRatio(pictures: readonly { width: number; height: number }[]): number {
  const [first] = pictures;
  if (!first) return 4 / 3;
  return pictures.length === 1 ? aspectRatio(first) : clampedRatio(first);
}

/** How wide a post's picture is drawn (its `sizes`) in the feed column. */
export const POST_PICTURE_SIZES = {
  feed: '(max-width: 560px) 100vw, (max-width: 980px) calc(100vw - 19rem), 640px',
} as const;

/**
 * The height the post page gives the artwork: the window below the header, the page's top row and margins
 * (the same figure as --post-media-fit-height in the web's post-page.module.css).
 */
export const POST_PAGE_FIT_HEIGHT = 'calc(87vh - 7.5rem)';

/**
 * The post page's `sizes` for a box of this width ÷ height: full width on a phone; in one column (at most
 * 46rem) up to 1099 px; from 1100 px beside the details, or a panorama across the page; never wider than
 * the fitted height allows.
 */
export function postPageSizes(ratio: number): string {
  const byHeight = `calc(${POST_PAGE_FIT_HEIGHT} * ${ratio.toFixed(3)})`;
  const wide = isPanorama(ratio) ? 'calc(100vw - 19rem)' : 'calc(100vw - 41rem)';
  return (
    `(max-width: 560px) 100vw, ` +
    `(max-width: 1099px) min(calc(100vw - 19rem), 46rem, ${byHeight}), ` +
    `min(${wide}, ${byHeight})`
  );
}
