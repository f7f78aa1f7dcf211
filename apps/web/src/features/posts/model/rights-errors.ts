import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { RIGHTS_ERRORS } from '@share-arts/contract';

/**
 * The contract's RIGHTS_ERRORS that the web app says itself (issue 43): why a post takes no comment from you. The
 * English is the contract's word for word (rights-errors.test.ts). The others come from the server.
 */
export const RIGHTS_ERROR_TEXT = {
  commentsOff: msg`The author has turned off comments on this post.`,
  commentsFollowing: msg`Only people the author follows can comment on this post.`,
} satisfies Partial<Record<keyof typeof RIGHTS_ERRORS, MessageDescriptor>>;

/** One of those sentences in the current language. */
export const rightsError = (key: keyof typeof RIGHTS_ERROR_TEXT): string => i18n._(RIGHTS_ERROR_TEXT[key]);
