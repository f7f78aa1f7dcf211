import { Type, type Static } from 'typebox';
import { RemotePerson } from './user.js';

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

export const ACCOUNT_MOVE_ERRORS = {
  tooMany: `Name at most ${ACCOUNT_ALIASES_MAX} other accounts.`,
  notAPerson:
    '{query} is not a person on another server: type the handle of your old account, like @you@mastodon.social.',
  thisSite: '{query} is an account on this site: name your account on another server.',
} as const;
