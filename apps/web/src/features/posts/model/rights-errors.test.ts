import { i18n } from '@lingui/core';
import { RIGHTS_ERRORS } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { RIGHTS_ERROR_TEXT, rightsError } from './rights-errors';

describe('rights errors in the web app', () => {
  it('are in English word for word the contract’s', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    for (const key of Object.keys(RIGHTS_ERROR_TEXT) as (keyof typeof RIGHTS_ERROR_TEXT)[]) {
      expect(rightsError(key)).toBe(RIGHTS_ERRORS[key]);
    }
  });
});
