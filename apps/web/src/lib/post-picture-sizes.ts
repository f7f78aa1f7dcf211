import { isPanorama } from './picture-shape';

/**
 * How wide a post's picture is drawn (its `sizes`): the feed column, or on the post page the artwork's
 * column, where the artwork is also fitted to the window's height (so a portrait is drawn narrower).
 * Dependency-free: the boot script preloads the first picture with these (src/boot/page-data.ts), and
 * only an identical `sizes` makes the browser pick the very file it preloaded.
 */
export const POST_PICTURE_SIZES = {
  feed: '(max-width: 560px) 100vw, (max-width: 980px) calc(100vw - 19rem), 640px',
} as const;

/**
 * The height the post page gives the artwork: the window below the header, the page's top row and margins
 * (the same figure as --post-media-fit-height in post-page.module.css).
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
