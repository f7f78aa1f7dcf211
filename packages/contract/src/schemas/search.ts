import { Type, type Static } from 'typebox';
import { PageQuery, Post } from './post.js';
import { UserCard } from './user.js';
import { TagSuggestion } from './tags.js';
import { CommissionFilterQuery } from './commissions.js';

export const SEARCH_LIMITS = { queryMax: 100, usersInAll: 5, tagsInAll: 5 } as const;

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
  // People only (type=users, and the users of type=all): narrowed to artists open for commissions (issue 42).
  ...CommissionFilterQuery.properties,
});
export type SearchQuery = Static<typeof SearchQuery>;

export const SearchResponse = Type.Object({
  users: Type.Optional(Type.Array(UserCard, { description: 'Best match first' })),
  posts: Type.Optional(
    Type.Array(Post, {
      description:
        "Best match first; for a #hashtag, newest first. Also the newest works of the people whose username or name matches (an artist's name finds their works)",
    }),
  ),
  tags: Type.Optional(
    Type.Array(TagSuggestion, {
      maxItems: SEARCH_LIMITS.tagsInAll,
      description: `type=all only: up to ${SEARCH_LIMITS.tagsInAll} tags starting with the query's first word (with or without #), the most used first`,
    }),
  ),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'The next page of the paged kind (posts for type=all); null on the last page',
  }),
});
export type SearchResponse = Static<typeof SearchResponse>;
