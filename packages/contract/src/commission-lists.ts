// Open for commissions (issue 42): the kinds of work, the currencies and the limits of a panel. Kept out of
// schemas/ (see schemas/commissions.ts).

export const COMMISSION_KINDS = [
  'illustration',
  'character-design',
  'portrait',
  'concept-art',
  'comic',
  'logo',
  'tattoo-design',
  'other',
] as const;
export type CommissionKind = (typeof COMMISSION_KINDS)[number];

/** The label of each kind of work, for the web app and the link preview. */
export const COMMISSION_KIND_LABELS: Record<CommissionKind, string> = {
  illustration: 'Illustration',
  'character-design': 'Character design',
  portrait: 'Portrait',
  'concept-art': 'Concept art',
  comic: 'Comic',
  logo: 'Logo',
  'tattoo-design': 'Tattoo design',
  other: 'Other',
};

/** The currencies a price may be in (ISO 4217), the most used first. */
export const COMMISSION_CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CAD',
  'AUD',
  'NZD',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'HUF',
  'BRL',
  'MXN',
  'ARS',
  'KRW',
  'CNY',
  'TWD',
  'HKD',
  'SGD',
  'INR',
  'IDR',
  'PHP',
  'THB',
  'ZAR',
  'TRY',
  'ILS',
  'UAH',
] as const;
export type CommissionCurrency = (typeof COMMISSION_CURRENCIES)[number];

export const COMMISSION_LIMITS = {
  /** Characters of the kinds of work in the artist's own words. */
  kindsNoteMax: 200,
  /** Slots an artist may offer at once. */
  slotsMax: 99,
  /** A price, in whole units of its currency. */
  priceMax: 10_000_000,
  /** Days of a typical turnaround. */
  turnaroundDaysMax: 365,
  /** Characters of the terms. */
  termsMax: 2000,
  /** Characters of the terms' link. */
  termsUrlMax: 500,
  /** Example works picked from one's own portfolio. */
  examplesMax: 6,
  /** Languages one works in. */
  languagesMax: 10,
} as const;
