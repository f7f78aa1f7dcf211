import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { FOLLOW_FROM_ERRORS } from '@share-arts/contract';

/**
 * The contract's FOLLOW_FROM_ERRORS that the web app says itself, before asking the server (issue 43); the English
 * is the contract's word for word (follow-from-errors.test.ts). The others come from the server.
 */
export const FOLLOW_FROM_ERROR_TEXT = {
  notAnAccount: msg`Type your fediverse handle, like @you@mastodon.social, or just your server, like mastodon.social.`,
} satisfies Partial<Record<keyof typeof FOLLOW_FROM_ERRORS, MessageDescriptor>>;

/** One of those sentences in the current language. */
export const followFromError = (key: keyof typeof FOLLOW_FROM_ERROR_TEXT): string =>
  i18n._(FOLLOW_FROM_ERROR_TEXT[key]);
