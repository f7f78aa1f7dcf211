import { i18n } from '@lingui/core';
import { TOASTS } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { TOAST_TEXT, toastText } from './spec-toasts';

describe('the spec toasts in the web app', () => {
  it('say in English word for word what the contract says, for every toast', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(Object.keys(TOAST_TEXT).sort()).toEqual(Object.keys(TOASTS).sort());
    for (const key of Object.keys(TOASTS) as (keyof typeof TOASTS)[]) expect(toastText(key)).toBe(TOASTS[key]);
  });
});
