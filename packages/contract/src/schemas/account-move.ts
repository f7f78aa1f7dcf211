import { Type, type Static } from 'typebox';
import { PersonSummary, RemotePerson } from './user.js';

/**
 * Moving an account to Share Arts (issue 40, on the fediverse of issue 39): the artist names their old accounts
 * (on Mastodon, Pixelfed…) here first, so that this account's actor says it is also known as them
 * (`alsoKnownAs`); then their old server can move their followers here (a `Move`, started there: on Mastodon,
 * Preferences → Account → "Move to a different account").
 */
export const ACCOUNT_ALIASES_MAX = 5;

export const AccountAliasesBody = Type.Object({
  accounts: Type.Array(
    Type.String({
      maxLength: 320,
      description: 'An old account: its handle (@you@mastodon.social) or the address of its profile',
    }),
    {
      maxItems: ACCOUNT_ALIASES_MAX,
      description: `Your other accounts, at most ${ACCOUNT_ALIASES_MAX}: the whole list (an empty list removes them all)`,
    },
  ),
});
export type AccountAliasesBody = Static<typeof AccountAliasesBody>;

export const AccountAliasesResponse = Type.Object({
  aliases: Type.Array(RemotePerson, {
    maxItems: ACCOUNT_ALIASES_MAX,
    description: "The accounts this account says it is also known as (its actor's alsoKnownAs), in the order given",
  }),
});
export type AccountAliasesResponse = Static<typeof AccountAliasesResponse>;

/**
 * Moving away (issue 40, the reverse): the artist first names this account on their new server (Mastodon:
 * Preferences → Account → "Moving from a different account"), then moves here; their followers on other servers
 * are sent a `Move` and follow the new account, and their followers here follow it at once (or ask to).
 */
export const ACCOUNT_MOVE_COOLDOWN_DAYS = 30;

export const AccountMoveBody = Type.Object({
  account: Type.String({
    minLength: 1,
    maxLength: 320,
    description:
      'The account you are moving to: its handle (@you@mastodon.social), its profile address, or a username here',
  }),
});
export type AccountMoveBody = Static<typeof AccountMoveBody>;

export const AccountMoveResponse = Type.Object({
  movedTo: Type.Union([PersonSummary, Type.Null()], {
    description: 'The account this one moved to (its actor says `movedTo`), null when it has not moved',
  }),
  movedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: `When it last moved; another move is possible ${ACCOUNT_MOVE_COOLDOWN_DAYS} days later`,
  }),
  followersMoved: Type.Optional(
    Type.Integer({
      description: 'After a move: how many of your followers here now follow (or asked to follow) the new account',
    }),
  ),
});
export type AccountMoveResponse = Static<typeof AccountMoveResponse>;

export const ACCOUNT_MOVE_ERRORS = {
  tooMany: `Name at most ${ACCOUNT_ALIASES_MAX} other accounts.`,
  notAPerson:
    '{query} is not a person on another server: type the handle of your old account, like @you@mastodon.social.',
  thisSite: '{query} is an account on this site: name your account on another server.',
  moveNotAPerson: '{query} is not an account: type the handle of your new account, like @you@mastodon.social.',
  moveToSelf: 'That is this account: name the account you are moving to.',
  moveNotNamed:
    '{query} does not name this account yet: on your new server, add {you} as an alias of it (Mastodon: Preferences → ' +
    'Account → "Moving from a different account"), then move again.',
  moveTooSoon: `You moved less than ${ACCOUNT_MOVE_COOLDOWN_DAYS} days ago: you can move again on {date}.`,
  moveMoved: '{query} has moved itself: name the account it moved to.',
  moveHere: '{query} is an account on this site: name your new account on another server.',
} as const;
