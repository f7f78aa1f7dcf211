import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { formatPrice, formatTurnaround, languageName } from './format';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('commission formats', () => {
  it('writes a price range in whole units of its currency', () => {
    expect(formatPrice({ currency: 'EUR', min: 40, max: 250 }, 'en')).toBe('€40–€250');
    expect(formatPrice({ currency: 'JPY', min: 5000, max: 5000 }, 'en')).toBe('¥5,000');
  });

  it('writes a turnaround in weeks when it is whole weeks of two or more', () => {
    expect(formatTurnaround(21)).toBe('About 3 weeks');
    expect(formatTurnaround(10)).toBe('About 10 days');
    expect(formatTurnaround(1)).toBe('About 1 day');
  });

  it('names a language tag', () => {
    expect(languageName('fr', 'en')).toBe('French');
    expect(languageName('pt-BR', 'en')).toBe('Brazilian Portuguese');
  });
});
