import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { LICENCE_INFO, type LicenceId } from '@share-arts/contract';

/**
 * The name of the one licence with words to translate (issue 43): "All rights reserved". The Creative Commons
 * licences keep their names ("CC BY 4.0") in every language, as the contract's LICENCE_INFO writes them.
 */
export const LICENCE_NAMES = {
  'all-rights-reserved': msg`All rights reserved`,
} satisfies Partial<Record<LicenceId, MessageDescriptor>>;

/** A licence's name in the current language. */
export const licenceName = (licence: LicenceId): string =>
  licence === 'all-rights-reserved' ? i18n._(LICENCE_NAMES[licence]) : LICENCE_INFO[licence].name;
