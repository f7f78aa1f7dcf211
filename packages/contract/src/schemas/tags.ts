import { Type, type Static } from 'typebox';
import { ExploreQuery, PageQuery } from './post.js';
import { UserSummary } from './user.js';

/**
 * Tags and mentions (issue 22). Routes, all under /api:
 *
 * - `GET /tags/{tag}` → `TagState`: the tag, how many posts carry it, whether the viewer follows it (false
 *   without a token). A tag nobody used yet answers postCount 0, never 404; a malformed tag is a 400.
 * - `GET /tags/{tag}/posts?sort&cursor&limit` → `PostPage` (same sorts and paging as `GET /posts`).
 * - `POST /tags/{tag}/follow` and `DELETE /tags/{tag}/follow` → `TagState`; idempotent (following twice,
 *   or unfollowing a tag one does not follow, is fine). Following more than `TAG_LIMITS.followMax` tags: 400.
 * - `GET /users/me/tags?cursor&limit` → `FollowedTagPage`: the tags the viewer follows, the most recently
 *   followed first.
 * - `GET /tags?prefix=&limit=` → `TagSuggestions`: tags starting with prefix, the most used first (the
 *   composer's `#`). An empty prefix gives the most used tags.
 * - `GET /users/mentionable?prefix=&limit=` → `MentionSuggestions`: people whose username or name starts
 *   with prefix, the people the viewer follows first (the composer's `@`).
 *
 * In a `Post`, `reason` says why it is on Home when it is not by someone the viewer follows (a followed tag).
 * A `Notification` of kind `mention` carries the post and, for a mention in a comment, the comment.
 */

export const TAG_LIMITS = {
  /** Characters of a tag (letters, digits and underscores, any script). */
  maxLength: 50,
  /** Tags one person may follow. */
  followMax: 500,
  /** Suggestions per answer: default and most. */
  suggestDefault: 8,
  suggestMax: 50,
  /** People notified of a mention per post or comment (the first ones written). */
  mentionsPerText: 20,
} as const;

/** A tag as the server stores it: lower case, letters, digits and `_` of any script, 1 to 50 of them, no `#`. */
export const TAG_PATTERN = `^[\\p{L}\\p{N}_]{1,${TAG_LIMITS.maxLength}}$`;

export const TagParams = Type.Object({
  tag: Type.String({
    maxLength: 200,
    description: `The tag without its # (case does not matter): letters, digits and _ of any script, 1 to ${TAG_LIMITS.maxLength}`,
  }),
});
export type TagParams = Static<typeof TagParams>;

export const TagState = Type.Object({
  tag: Type.String({ description: 'The tag in lower case, without #' }),
  postCount: Type.Integer({ description: 'Posts carrying it (0 when none yet)' }),
  following: Type.Boolean({ description: 'Whether the signed-in viewer follows it (false without a token)' }),
});
export type TagState = Static<typeof TagState>;

export const TagPostsQuery = ExploreQuery;
export type TagPostsQuery = Static<typeof TagPostsQuery>;

export const FollowedTagPage = Type.Object({
  tags: Type.Array(TagState, { description: 'The most recently followed first' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type FollowedTagPage = Static<typeof FollowedTagPage>;

export const FollowedTagsQuery = PageQuery;

const prefix = Type.String({
  maxLength: 100,
  description: 'What was typed after # or @ (without it); case does not matter',
});
const suggestLimit = Type.Integer({
  minimum: 1,
  maximum: TAG_LIMITS.suggestMax,
  description: `Default ${TAG_LIMITS.suggestDefault}`,
});

export const TagSuggestQuery = Type.Object({ prefix: Type.Optional(prefix), limit: Type.Optional(suggestLimit) });
export type TagSuggestQuery = Static<typeof TagSuggestQuery>;

export const TagSuggestion = Type.Object({ tag: Type.String(), postCount: Type.Integer() });
export type TagSuggestion = Static<typeof TagSuggestion>;

export const TagSuggestions = Type.Object({
  tags: Type.Array(TagSuggestion, { description: 'The most used first' }),
});
export type TagSuggestions = Static<typeof TagSuggestions>;

export const MentionSuggestQuery = TagSuggestQuery;
export type MentionSuggestQuery = Static<typeof MentionSuggestQuery>;

export const MentionSuggestions = Type.Object({
  users: Type.Array(UserSummary, {
    description: 'People whose username or name starts with prefix: those the viewer follows first',
  }),
});
export type MentionSuggestions = Static<typeof MentionSuggestions>;

/** The routes, for clients (the path parameter encoded with encodeURIComponent). */
export const TAG_ROUTES = {
  tag: (tag: string) => `/api/tags/${encodeURIComponent(tag)}`,
  posts: (tag: string) => `/api/tags/${encodeURIComponent(tag)}/posts`,
  follow: (tag: string) => `/api/tags/${encodeURIComponent(tag)}/follow`,
  followed: '/api/users/me/tags',
  suggest: '/api/tags',
  mentionable: '/api/users/mentionable',
} as const;
