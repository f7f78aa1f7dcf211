import { Type, type Static } from 'typebox';

/**
 * "Follow from your server" (issue 39): a visitor who has an account on Mastodon, Pixelfed or another fediverse
 * server types their handle or their server, and is sent to their server's own page for following the artist
 * (the subscribe template its WebFinger names, as Mastodon's "remote interaction" does).
 */
export const FOLLOW_FROM = {
  /** The longest handle or address taken (a host name is at most 253 characters). */
  accountMaxLength: 320,
  /** How long the visitor's server has to answer its WebFinger. */
  lookupTimeoutMs: 8_000,
} as const;

export const FollowFromQuery = Type.Object({
  account: Type.String({
    maxLength: FOLLOW_FROM.accountMaxLength,
    description: "The visitor's handle (@you@mastodon.social, you@pixelfed.example) or server (mastodon.social)",
  }),
});
export type FollowFromQuery = Static<typeof FollowFromQuery>;

export const FollowFromResponse = Type.Object({
  /** Where to send the visitor: their server's page for following the artist. */
  url: Type.String(),
  /** The artist as the visitor's server knows them: `username@our.host`. */
  handle: Type.String(),
});
export type FollowFromResponse = Static<typeof FollowFromResponse>;

/** The sentences the route answers with; `{host}` and `{handle}` are put in. */
export const FOLLOW_FROM_ERRORS = {
  notAnAccount: 'Type your fediverse handle, like @you@mastodon.social, or just your server, like mastodon.social.',
  thisServer: 'That is an account here: sign in and use Follow.',
  noServer:
    'We could not reach a fediverse server at {host}. Check the address, or search for {handle} on your server.',
  noFollowPage:
    '{host} did not name a page for following people from other sites. Search for {handle} on your server and follow from there.',
} as const;

/**
 * Following out (issue 39): a signed-in artist finds someone on another server (by handle or profile URL) or one of
 * their works (by its URL), which then has a page here: `/{username}` (`bob@host`) or `/posts/{postId}`.
 */
export const LOOKUP = {
  /** The longest handle or URL taken. */
  queryMaxLength: 2_000,
} as const;

export const LookupQuery = Type.Object({
  q: Type.String({
    maxLength: LOOKUP.queryMaxLength,
    description: 'A handle (@bob@mastodon.example or bob@mastodon.example), a profile URL or a post URL',
  }),
});
export type LookupQuery = Static<typeof LookupQuery>;

export const LookupResponse = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('person'),
      username: Type.String({ description: 'Their username here: `bob@host` for someone on another server' }),
    },
    { description: 'A person: their profile here is /{username}' },
  ),
  Type.Object(
    {
      kind: Type.Literal('work'),
      postId: Type.String({ description: 'The work here: /posts/{postId}' }),
    },
    { description: 'A work: its page here is /posts/{postId}' },
  ),
]);
export type LookupResponse = Static<typeof LookupResponse>;

/** The sentences the lookup answers with; `{host}` and `{query}` are put in. */
export const LOOKUP_ERRORS = {
  notAQuery: 'Type a handle like @bob@mastodon.social, or paste the address of a profile or a post on another server.',
  nobody: 'We found nobody at {query}. Check the handle or the address.',
  notAWork: 'That post has no pictures, or is not public: only public works with pictures can be shown here.',
  noServer: '{host} did not answer. It may be down or not a fediverse server: try again later.',
  suspended: 'This server does not exchange with {host}.',
  /** 403: a moderator chose not to take that server's pictures (reject_media), so its works are not shown here. */
  mediaRejected: 'Pictures from {host} are not shown here, so its works cannot be brought in.',
} as const;

/** Why following someone on another server was refused (POST /api/users/follow/{id}, issue 39). */
export const FOLLOW_OUT_ERRORS = {
  /** 403: their server is suspended here (a moderator's block). */
  suspended: 'This server does not exchange with theirs, so you cannot follow them.',
  /** 403: the viewer blocks them. */
  blocked: 'You blocked this person: unblock them first to follow them.',
  /** 503: without the site's address no Follow can be sent. */
  unsendable:
    "Following people on other servers needs this site's public address (PUBLIC_ORIGIN), which is not set: ask the site's operator.",
} as const;
