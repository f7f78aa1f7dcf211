import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { SecurityEventKind } from '@share-arts/contract';

/**
 * How the security log names each change, in the app's language (issue 43): the contract's SECURITY_EVENT_TITLES
 * (which the mails use too), whose English these are word for word (security-event-titles.test.ts).
 */
export const SECURITY_EVENT_TEXT = {
  'password-changed': msg`Password changed`,
  'password-reset': msg`Password reset with a link from the mail`,
  'email-changed': msg`Email address changed`,
  'email-change-undone': msg`Email address change undone from the old address`,
  'two-factor-on': msg`Two-factor sign-in turned on`,
  'two-factor-off': msg`Two-factor sign-in turned off`,
  'passkey-added': msg`Passkey added`,
  'passkey-removed': msg`Passkey removed`,
} satisfies Record<SecurityEventKind, MessageDescriptor>;

/** A change's title in the current language (its kind's own name for a kind this app does not know yet). */
export const securityEventTitle = (kind: SecurityEventKind): string =>
  Object.hasOwn(SECURITY_EVENT_TEXT, kind) ? i18n._(SECURITY_EVENT_TEXT[kind]) : kind;
