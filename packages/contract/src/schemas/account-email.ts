import { Type, type Static } from 'typebox';
import { LIMITS } from '../constants.js';

/** Mail (issue 24): how long a link lives, and the sentences of email confirmation and password reset. */
export const ACCOUNT_EMAIL_LIMITS = {
  /** A confirmation link works for 24 hours. */
  verifyLinkHours: 24,
  /** A password reset link works for 1 hour. */
  resetLinkMinutes: 60,
  /** A token is 32 random bytes in base64url: 43 characters. */
  tokenLength: 43,
} as const;

export const ACCOUNT_EMAIL_MESSAGES = {
  /** The one answer to every "Forgot password?", whether or not the account exists. */
  resetRequested:
    'If an account with a confirmed email address matches what you typed, we have sent it a link to choose a new password. The link works for 1 hour. Please check your inbox (and your spam folder).',
  passwordReset:
    'Your password has been changed and every session of your account has been signed out. Please log in with your new password.',
  emailVerified: 'Thank you: your email address is confirmed.',
  verificationSent: 'We have sent you a new confirmation link. Please check your inbox (and your spam folder).',
} as const;

export const ACCOUNT_EMAIL_ERRORS = {
  resetLinkUnknown:
    'This password reset link is not valid. Please copy the whole link from the email, or ask for a new one on the "Forgot password?" page.',
  resetLinkUsed:
    'This password reset link has already been used. If you still need to choose a new password, ask for a new link on the "Forgot password?" page.',
  resetLinkExpired:
    'This password reset link has expired (links work for 1 hour). Please ask for a new one on the "Forgot password?" page.',
  resetLinkOtherAddress:
    'This password reset link was sent to an address your account no longer uses. Please ask for a new one on the "Forgot password?" page.',
  verifyLinkUnknown:
    'This confirmation link is not valid. Please copy the whole link from the email, or send a new one from Settings.',
  verifyLinkUsed:
    'This confirmation link has already been used. If your address still shows as unconfirmed, send a new link from Settings.',
  verifyLinkExpired:
    'This confirmation link has expired (links work for 24 hours). Please send a new one from Settings.',
  verifyLinkOtherAddress:
    'This confirmation link is for an address your account no longer uses. Please confirm your current address with the link we sent to it, or send a new one from Settings.',
  alreadyVerified: 'Your email address is already confirmed.',
} as const;

const Token = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The token from the link in the email (the value of its ?token=)',
  errorMessage: 'token must be the code from the link in the email.',
});

export const ForgotPasswordBody = Type.Object(
  {
    login: Type.String({
      minLength: 1,
      maxLength: 254,
      pattern: '^[^\\u0000-\\u001F\\u007F]+$',
      description: 'The account’s email address or username',
      errorMessage: 'login must be your email address or username.',
    }),
  },
  { additionalProperties: false },
);
export type ForgotPasswordBody = Static<typeof ForgotPasswordBody>;

export const ResetPasswordBody = Type.Object(
  {
    token: Token,
    password: Type.String({
      minLength: LIMITS.passwordMin,
      maxLength: LIMITS.passwordMax,
      description: 'The new password',
      errorMessage: `password must be ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters long`,
    }),
  },
  { additionalProperties: false },
);
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

export const VerifyEmailBody = Type.Object({ token: Token }, { additionalProperties: false });
export type VerifyEmailBody = Static<typeof VerifyEmailBody>;

/** A sentence to show the person. */
export const AccountEmailMessage = Type.Object({ message: Type.String() });
export type AccountEmailMessage = Static<typeof AccountEmailMessage>;
