import { Type, type Static } from 'typebox';
import { PageQuery, Post } from './post.js';
import { UserCard } from './user.js';

export const SEARCH_LIMITS = { queryMax: 100, usersInAll: 5 } as const;

export const SearchQuery = Type.Object({
  q: Type.String({
    minLength: 1,
    maxLength: SEARCH_LIMITS.queryMax,
    pattern: '\\S',
    patternMessage: 'must contain more than spaces',
    description: 'Words, part of a name or username, or a #hashtag',
  }),
  type: Type.Optional(
    Type.Enum(['all', 'users', 'posts'], {
      description: `all (default): the best ${SEARCH_LIMITS.usersInAll} users and the first page of posts; users or posts: one kind, paged`,
    }),
  ),
  ...PageQuery.properties,
});
export type SearchQuery = Static<typeof SearchQuery>;

export const SearchResponse = Type.Object({
  users: Type.Optional(Type.Array(UserCard, { description: 'Best match first' })),
  posts: Type.Optional(Type.Array(Post, { description: 'Best match first; for a #hashtag, newest first' })),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'The next page of the paged kind (posts for type=all); null on the last page',
  }),
});
export type SearchResponse = Static<typeof SearchResponse>;
