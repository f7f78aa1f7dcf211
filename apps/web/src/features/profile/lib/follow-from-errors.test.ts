import { i18n } from '@lingui/core';
import { FOLLOW_FROM_ERRORS } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { FOLLOW_FROM_ERROR_TEXT, followFromError } from './follow-from-errors';

describe('follow-from errors in the web app', () => {
  it('are in English word for word the contract’s', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    for (const key of Object.keys(FOLLOW_FROM_ERROR_TEXT) as (keyof typeof FOLLOW_FROM_ERROR_TEXT)[]) {
      expect(followFromError(key)).toBe(FOLLOW_FROM_ERRORS[key]);
    }
  });
});
