import { Type, type Static } from 'typebox';
import { LIMITS } from '../constants.js';
import { DateString } from './common.js';

/** How many sessions GET /api/sessions lists at most: the most recently used. */
export const SESSIONS_LIST_MAX = 50;

/** Sessions and the password change (issue 24): the messages the client shows. */
export const ACCOUNT_ERRORS = {
  sessionNotFound: 'This session is not one of yours, or it has already ended.',
  wrongCurrentPassword: 'Your current password is not right: type the password you sign in with now.',
  samePassword: 'The new password is the one you have now: choose a different one.',
} as const;

/** One of the signed-in user's sessions (GET /api/sessions). */
export const SessionInfo = Type.Object({
  id: Type.String({ format: 'uuid' }),
  /** The browser and system, described from the user agent (e.g. "Firefox on Windows"). */
  device: Type.String({ description: 'The browser and system, described from the user agent' }),
  /** desktop, mobile, tablet, tv, bot, or unknown. */
  deviceType: Type.String({ description: 'desktop, mobile, tablet, tv, bot or unknown' }),
  /** The network the session signed in from, coarse (an IPv4 /24, an IPv6 /48); no outside lookups. */
  place: Type.String({ description: 'The network it signed in from, coarse (IPv4 /24, IPv6 /48)' }),
  createdAt: DateString,
  lastUsedAt: DateString,
  /** True for the session of the token that asked. */
  current: Type.Boolean(),
  /** An app signed in through OAuth (issue 45): its name and website; `device` is then the app's name. */
  app: Type.Optional(
    Type.Object({
      name: Type.String(),
      website: Type.Union([Type.String(), Type.Null()]),
      scopes: Type.Array(Type.String()),
    }),
  ),
});
export type SessionInfo = Static<typeof SessionInfo>;

export const SessionsResponse = Type.Object({ sessions: Type.Array(SessionInfo) });
export type SessionsResponse = Static<typeof SessionsResponse>;

export const SessionParams = Type.Object({
  id: Type.String({ format: 'uuid', errorMessage: 'id must be the id of a session (a UUID).' }),
});
export type SessionParams = Static<typeof SessionParams>;

export const EndOthersResponse = Type.Object({ ended: Type.Integer({ minimum: 0 }) });
export type EndOthersResponse = Static<typeof EndOthersResponse>;

export const ChangePasswordBody = Type.Object(
  {
    currentPassword: Type.String({
      minLength: 1,
      maxLength: 1024,
      errorMessage: 'currentPassword must not be empty: type the password you sign in with now.',
    }),
    newPassword: Type.String({
      minLength: LIMITS.passwordMin,
      maxLength: LIMITS.passwordMax,
      errorMessage: `newPassword must be ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters long.`,
    }),
  },
  { additionalProperties: false },
);
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

export const ChangePasswordResponse = Type.Object({
  /** How many other sessions ended (every one but the caller's). */
  endedSessions: Type.Integer({ minimum: 0 }),
});
export type ChangePasswordResponse = Static<typeof ChangePasswordResponse>;
