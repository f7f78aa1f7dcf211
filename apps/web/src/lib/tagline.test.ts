import { i18n } from '@lingui/core';
import { TAGLINE } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { TAGLINE_TEXT } from './tagline';

describe('the tagline in the web app', () => {
  it('is in English word for word the contract’s', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(i18n._(TAGLINE_TEXT)).toBe(TAGLINE);
  });
});
