import { Type, type Static } from 'typebox';
import { LIMITS } from '../constants.js';
import { DateString } from './common.js';
import { PasskeyCredential } from './two-factor.js';

/**
 * Account security (issue 38): a changing of what protects the account asks who is there again ("sudo mode"),
 * the old address can undo an email change, and every such change is mailed and listed in the security log.
 */
export const SECURITY = {
  /**
   * How long a confirmation of who you are (your password, a passkey or a code) lets the session change what
   * protects the account, counted from the sign-in or the last confirmation. Ten minutes covers setting up an
   * authenticator and a passkey in one sitting; a token copied later, from a log or a shared computer, is
   * refused those changes.
   */
  reauthMinutes: 10,
  /** How long the link mailed to the old address undoes an email change. */
  undoEmailDays: 7,
  /** How many entries GET /api/account/security-log lists: the newest. */
  logMax: 50,
} as const;

export const SECURITY_ERRORS = {
  reauthRequired: `Please confirm it's you: type your password (or use a passkey or a code from your authenticator app). You will not be asked again for ${SECURITY.reauthMinutes} minutes.`,
  reauthProofRequired: 'Send one of password, code or passkey to confirm it is you.',
  wrongPassword: 'This password is not right: type the password you sign in with now.',
  emailChangeNeedsConfirmation:
    'To change your email address, confirm it is you first: Settings → Account → Email address asks for your password (POST /api/account/email). Nothing was saved: send this edit again with your current address.',
  sameEmail: 'This is your email address already.',
  undoLinkUnknown:
    'This link is not valid. Please copy the whole link from the email about the change of your address.',
  undoLinkUsed: 'This link has been used already: your address was put back then.',
  undoLinkExpired: `This link has expired (it works for ${SECURITY.undoEmailDays} days). If someone else changed your address, ask for a password reset on the "Forgot password?" page, or write to the site's moderators.`,
} as const;

export const SECURITY_MESSAGES = {
  emailChanged:
    'Your new address is saved. Please open the link we mailed to it to confirm it; we have told your old address too.',
  emailChangeUndone:
    'Your email address has been put back and confirmed, and every session of your account has been signed out. If you did not change it, choose a new password ("Forgot password?") and check your passkeys and authenticator app in Settings → Account.',
} as const;

export const ReauthenticateBody = Type.Object(
  {
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Your password' })),
    code: Type.Optional(
      Type.String({ maxLength: 100, description: 'A code from your authenticator app, or a recovery code' }),
    ),
    passkey: Type.Optional(PasskeyCredential),
  },
  { additionalProperties: false, description: 'One of password, code or passkey' },
);
export type ReauthenticateBody = Static<typeof ReauthenticateBody>;

export const ReauthenticateResponse = Type.Object({
  /** Until when this session may change what protects the account without being asked again. */
  until: DateString,
});
export type ReauthenticateResponse = Static<typeof ReauthenticateResponse>;

export const ChangeEmailBody = Type.Object(
  {
    email: Type.String({
      format: 'email',
      maxLength: LIMITS.emailMax,
      errorMessage: 'email must be a valid address, like ana@example.com',
    }),
  },
  { additionalProperties: false },
);
export type ChangeEmailBody = Static<typeof ChangeEmailBody>;

export const SecurityMessage = Type.Object({ message: Type.String() });
export type SecurityMessage = Static<typeof SecurityMessage>;

export const UndoEmailBody = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The token from the link in the email (the value of its ?token=)',
      errorMessage: 'token must be the code from the link in the email.',
    }),
  },
  { additionalProperties: false },
);
export type UndoEmailBody = Static<typeof UndoEmailBody>;

/** What changed, in the security log and the mail about it. */
export const SECURITY_EVENT_KINDS = [
  'password-changed',
  'password-reset',
  'email-changed',
  'email-change-undone',
  'two-factor-on',
  'two-factor-off',
  'passkey-added',
  'passkey-removed',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** How the log and the mails name each change. */
export const SECURITY_EVENT_TITLES: Record<SecurityEventKind, string> = {
  'password-changed': 'Password changed',
  'password-reset': 'Password reset with a link from the mail',
  'email-changed': 'Email address changed',
  'email-change-undone': 'Email address change undone from the old address',
  'two-factor-on': 'Two-factor sign-in turned on',
  'two-factor-off': 'Two-factor sign-in turned off',
  'passkey-added': 'Passkey added',
  'passkey-removed': 'Passkey removed',
};

export const SecurityEvent = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: Type.Unsafe<SecurityEventKind>(Type.String({ enum: [...SECURITY_EVENT_KINDS] })),
  /** What it was about: the passkey's name, the addresses of an email change; '' when nothing more. */
  detail: Type.String(),
  at: DateString,
  /** The browser and system of the session that did it ('' for a mailed link). */
  device: Type.String(),
  /** The network it came from, coarse (IPv4 /24, IPv6 /48). */
  place: Type.String(),
});
export type SecurityEvent = Static<typeof SecurityEvent>;

export const SecurityLogResponse = Type.Object({ events: Type.Array(SecurityEvent, { maxItems: SECURITY.logMax }) });
export type SecurityLogResponse = Static<typeof SecurityLogResponse>;
