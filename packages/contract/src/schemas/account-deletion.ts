import { Type, type Static } from 'typebox';
import { DateString } from './common.js';

/** Deleting one's own account (issue 24): how long the name is held back, and the messages. */
export const ACCOUNT_DELETION = { heldUsernameDays: 30 } as const;

export const ACCOUNT_DELETION_ERRORS = {
  passwordRequired: 'password must not be empty: type your current password to delete your account.',
  wrongPassword: 'The password is not right: type the password you sign in with to delete your account.',
  secondFactorRequired:
    'Your account asks for a second factor: send secondFactor (a code from your authenticator app or a recovery code) to delete it.',
  usernameHeld: `This username belonged to an account deleted less than ${ACCOUNT_DELETION.heldUsernameDays} days ago and is held back until then. Please choose another.`,
} as const;

export const DeleteAccountBody = Type.Object(
  {
    password: Type.String({ maxLength: 1000, description: 'Your current password' }),
    secondFactor: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'When two-factor sign-in is on: a code from the authenticator app or a recovery code',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DeleteAccountBody = Static<typeof DeleteAccountBody>;

export const DeleteAccountResponse = Type.Object({
  deleted: Type.Literal(true),
  heldUntil: DateString,
});
export type DeleteAccountResponse = Static<typeof DeleteAccountResponse>;
