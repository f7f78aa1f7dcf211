import { Type, type Static } from 'typebox';
import { DateString } from './common.js';

/** "Download your data" (issue 24): how long a download link lasts, and the messages. */
export const EXPORT_LIMITS = { linkMinutes: 5 } as const;

export const EXPORT_ERRORS = {
  running: 'Your data is already being downloaded. Wait until that download finishes (or cancel it), then try again.',
  linkNotFound:
    'This download link has expired or was used already. Go back to Settings and choose "Download your data" again.',
} as const;

/** The answer of POST /api/account/export: where to download the zip from, once, for a few minutes. */
export const ExportLink = Type.Object({
  url: Type.String({
    description:
      'The path to GET the zip from (/api/account/export/<token>): it needs no token in the header, works once, ' +
      `and expires after ${EXPORT_LIMITS.linkMinutes} minutes`,
  }),
  expiresAt: DateString,
});
export type ExportLink = Static<typeof ExportLink>;

export const ExportTokenParams = Type.Object({
  token: Type.String({ maxLength: 128, description: 'The one-time token of an export link' }),
});
export type ExportTokenParams = Static<typeof ExportTokenParams>;
