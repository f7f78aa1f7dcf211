import { Type, type Static } from 'typebox';
import { PostPage } from './post.js';

/** How many works an artist may pin to their profile. */
export const PINS_MAX = 6;

export const PinBody = Type.Object(
  {
    position: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: PINS_MAX - 1,
        errorMessage: `position must be a whole number from 0 (first) to ${PINS_MAX - 1}`,
        description:
          'Where among your pinned works: 0 is first. Omit to pin it last (or leave a pinned one where it is)',
      }),
    ),
  },
  { additionalProperties: false, description: 'Optional: without a body the post is pinned last' },
);
export type PinBody = Static<typeof PinBody>;

const pinnedId = Type.String({ maxLength: 64, description: 'The _id of one of your pinned posts' });

export const ReorderPinsBody = Type.Object(
  {
    postIds: Type.Array(pinnedId, {
      maxItems: PINS_MAX,
      errorMessage: `postIds lists at most ${PINS_MAX} posts: you can pin at most ${PINS_MAX}`,
      description: 'Every one of your pinned posts, each once, in the new order (first shown first)',
    }),
  },
  { additionalProperties: false },
);
export type ReorderPinsBody = Static<typeof ReorderPinsBody>;

/** A profile's pinned works, in the artist's order: a PostPage whose nextCursor is always null. */
export const PinnedPosts = PostPage;
export type PinnedPosts = Static<typeof PinnedPosts>;
