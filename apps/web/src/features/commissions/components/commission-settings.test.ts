import { describe, expect, it } from 'vitest';
import { bodyOf, type Draft } from './commission-settings';

const DRAFT: Draft = {
  open: true,
  kinds: ['portrait'],
  kindsNote: 'Pets',
  slotsTotal: '5',
  slotsTaken: '3',
  currency: 'EUR',
  priceMin: '40',
  priceMax: '250',
  turnaroundDays: '21',
  terms: 'Half up front.',
  termsUrl: ' https://example.com/terms ',
  languages: 'en, pt-BR  fr',
  examples: ['p2', 'p1'],
};

describe('the commission form’s body', () => {
  it('sends numbers, the price with its currency, and each language once typed', () => {
    expect(bodyOf(DRAFT)).toEqual({
      open: true,
      kinds: ['portrait'],
      kindsNote: 'Pets',
      slots: { total: 5, taken: 3 },
      price: { currency: 'EUR', min: 40, max: 250 },
      turnaroundDays: 21,
      terms: 'Half up front.',
      termsUrl: 'https://example.com/terms',
      languages: ['en', 'pt-BR', 'fr'],
      examples: ['p2', 'p1'],
    });
  });

  it('sends none for empty boxes, and one price for a single bound', () => {
    const body = bodyOf({
      ...DRAFT,
      slotsTotal: '',
      priceMin: '',
      priceMax: '60',
      turnaroundDays: '',
      termsUrl: '',
      languages: '',
    });
    expect(body).toMatchObject({ slots: null, price: { currency: 'EUR', min: 60, max: 60 }, turnaroundDays: null });
    expect(body.termsUrl).toBeNull();
    expect(body.languages).toEqual([]);
    expect(bodyOf({ ...DRAFT, priceMin: '', priceMax: '' }).price).toBeNull();
  });
});
