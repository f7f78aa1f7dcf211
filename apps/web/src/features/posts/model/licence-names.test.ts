import { i18n } from '@lingui/core';
import { LICENCE_INFO, LICENCES } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { LICENCE_NAMES, licenceName } from './licence-names';

describe('licence names in the web app', () => {
  it('are in English word for word the contract’s, for every licence', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    for (const licence of LICENCES) expect(licenceName(licence)).toBe(LICENCE_INFO[licence].name);
    for (const [licence, message] of Object.entries(LICENCE_NAMES)) {
      expect(i18n._(message)).toBe(LICENCE_INFO[licence as keyof typeof LICENCE_NAMES].name);
    }
  });
});
