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
