import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * The brand's tagline in the app's language (issue 43): the contract's TAGLINE (which the server's pages and mails
 * keep in English), word for word in English (tagline.test.ts). Render it with `i18n._(TAGLINE_TEXT)`.
 */
export const TAGLINE_TEXT: MessageDescriptor = msg`Connect to community and get inspired today.`;
