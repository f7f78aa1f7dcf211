/**
 * How wide a post's picture is drawn (its `sizes`): the feed column, or the post page's wider column.
 * Dependency-free: the boot script preloads the first picture with these (src/boot/page-data.ts), and
 * only an identical `sizes` makes the browser pick the very file it preloaded.
 */
export const POST_PICTURE_SIZES = {
  feed: '(max-width: 560px) 100vw, (max-width: 980px) calc(100vw - 19rem), 640px',
  page: '(max-width: 560px) 100vw, (max-width: 1100px) calc(100vw - 19rem), 736px',
} as const;
