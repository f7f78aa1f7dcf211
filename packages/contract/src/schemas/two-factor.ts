import { Type, type Static } from 'typebox';
import { DateString } from './common.js';
import { LoginResponse } from './user.js';

/** Two-factor sign-in (issue 24): an authenticator app's codes, recovery codes and passkeys. */
export const TWO_FACTOR = {
  recoveryCodes: 10,
  /** How long the ticket a right password gets stays good for the second step. */
  ticketMinutes: 5,
  /** How long a passkey challenge stays good. */
  challengeMinutes: 5,
  passkeysMax: 20,
  passkeyNameMax: 60,
} as const;

export const TWO_FACTOR_ERRORS = {
  wrongCode:
    'This code is not right, or was used already: type the 6 digits your authenticator app shows now, or one of your recovery codes.',
  codeRequired: 'code must not be empty: type the 6 digits your authenticator app shows, or a recovery code.',
  ticketExpired: 'This sign-in has expired or was finished already. Please sign in again with your password.',
  alreadyOn: 'Two-factor sign-in with an authenticator app is on already. Turn it off first to set it up again.',
  notSetUp: 'Start the set-up first (POST /api/two-factor/totp/setup), then confirm it with a code.',
  notOn: 'Two-factor sign-in with an authenticator app is not on for this account.',
  passkeyFailed: 'This passkey could not be checked. Please try again, or use another way to sign in.',
  passkeyUnknown: 'This passkey is not registered with any account here. Sign in with your password instead.',
  passkeyNotFound: 'You have no passkey with this id: see GET /api/two-factor.',
  challengeExpired: 'This passkey request has expired or was used already. Please try again.',
  tooManyPasskeys: `You have ${TWO_FACTOR.passkeysMax} passkeys already, the most one can: remove one before adding another.`,
} as const;

export const Passkey = Type.Object({
  _id: Type.String(),
  name: Type.String({ description: 'The name you gave it, or the kind of device' }),
  createdAt: DateString,
  lastUsedAt: Type.Union([DateString, Type.Null()]),
});
export type Passkey = Static<typeof Passkey>;

export const TwoFactorStatus = Type.Object({
  totp: Type.Boolean({ description: 'Whether sign-in asks for an authenticator code' }),
  recoveryCodesLeft: Type.Integer({ description: 'Recovery codes not used yet (0 when the app is off)' }),
  passkeys: Type.Array(Passkey, { maxItems: TWO_FACTOR.passkeysMax }),
});
export type TwoFactorStatus = Static<typeof TwoFactorStatus>;

export const TotpSetupResponse = Type.Object({
  secret: Type.String({ description: 'The secret in base32, to type into an app that cannot scan' }),
  uri: Type.String({ description: 'The otpauth:// URI the QR code holds' }),
  qrCode: Type.String({ description: 'The QR code as an SVG data URL' }),
});
export type TotpSetupResponse = Static<typeof TotpSetupResponse>;

export const CodeBody = Type.Object(
  {
    code: Type.String({
      maxLength: 100,
      description: 'The 6 digits the authenticator app shows, or a recovery code (spaces and dashes are ignored)',
    }),
  },
  { additionalProperties: false },
);
export type CodeBody = Static<typeof CodeBody>;

export const RecoveryCodes = Type.Object({
  recoveryCodes: Type.Array(Type.String(), {
    minItems: TWO_FACTOR.recoveryCodes,
    maxItems: TWO_FACTOR.recoveryCodes,
    description: 'Shown this once: each works one time instead of a code',
  }),
});
export type RecoveryCodes = Static<typeof RecoveryCodes>;

export const TwoFactorOff = Type.Object({ totp: Type.Literal(false) });
export type TwoFactorOff = Static<typeof TwoFactorOff>;

/** What a right password answers when the account asks for a second factor: no token yet. */
export const SecondFactorNeeded = Type.Object({
  secondFactorRequired: Type.Literal(true),
  ticket: Type.String({ description: `Send it with the second factor within ${TWO_FACTOR.ticketMinutes} minutes` }),
  methods: Type.Array(Type.Union([Type.Literal('totp'), Type.Literal('passkey')]), {
    description: 'The second factors this account has',
  }),
});
export type SecondFactorNeeded = Static<typeof SecondFactorNeeded>;

/** POST /api/auth/login's answer: a token, or (two-factor sign-in on) a ticket for the second step. */
export const LoginAnswer = Type.Union([LoginResponse, SecondFactorNeeded]);
export type LoginAnswer = Static<typeof LoginAnswer>;

/** A WebAuthn answer as @simplewebauthn/browser gives it (the library checks its parts). */
export const PasskeyCredential = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 1024 }),
    rawId: Type.String({ minLength: 1, maxLength: 1024 }),
    type: Type.Literal('public-key'),
    response: Type.Object({}, { additionalProperties: true }),
    clientExtensionResults: Type.Optional(Type.Object({}, { additionalProperties: true })),
    authenticatorAttachment: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: true },
);
export type PasskeyCredential = Static<typeof PasskeyCredential>;

export const SecondFactorBody = Type.Object(
  {
    ticket: Type.String({ maxLength: 200 }),
    code: Type.Optional(CodeBody.properties.code),
    passkey: Type.Optional(PasskeyCredential),
  },
  { additionalProperties: false },
);
export type SecondFactorBody = Static<typeof SecondFactorBody>;

/** WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON). */
export const PasskeyOptions = Type.Object({}, { additionalProperties: true });
export type PasskeyOptions = Static<typeof PasskeyOptions>;

export const PasskeyOptionsBody = Type.Object(
  { ticket: Type.Optional(Type.String({ maxLength: 200, description: 'For the second step of a sign-in' })) },
  { additionalProperties: false },
);
export type PasskeyOptionsBody = Static<typeof PasskeyOptionsBody>;

export const PasskeyRegisterBody = Type.Object(
  {
    credential: PasskeyCredential,
    name: Type.Optional(Type.String({ maxLength: TWO_FACTOR.passkeyNameMax })),
  },
  { additionalProperties: false },
);
export type PasskeyRegisterBody = Static<typeof PasskeyRegisterBody>;

export const PasskeySignInBody = Type.Object({ credential: PasskeyCredential }, { additionalProperties: false });
export type PasskeySignInBody = Static<typeof PasskeySignInBody>;

export const PasskeyParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
export type PasskeyParams = Static<typeof PasskeyParams>;
