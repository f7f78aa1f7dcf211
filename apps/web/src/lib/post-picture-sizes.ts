/**
 * How wide a post's picture is drawn (its `sizes`). The server writes the post page's preload with the same
 * rules, so they live in the contract (picture-layout.ts); the boot script preloads the feed's first picture
 * with them too (src/boot/page-data.ts).
 */
export { POST_PAGE_FIT_HEIGHT, POST_PICTURE_SIZES, postPageSizes } from '@share-arts/contract';
