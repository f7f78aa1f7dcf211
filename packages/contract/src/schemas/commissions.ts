import { Type, type Static } from 'typebox';
import { BODY_TEXT, DateString, Id, NAME_TEXT } from './common.js';
import { Picture } from './media.js';

/**
 * Open for commissions (issue 42): whether an artist takes commissions, and on what terms. Routes, all under /api
 * (docs/commissions.md says more):
 *
 * - `GET /users/{username}/commissions` → `CommissionsResponse`: the artist's panel (closed, or never filled in:
 *   `open` false).
 * - `PUT /commissions` `CommissionsBody` → `CommissionsResponse` (signed in): your own panel, replaced whole.
 * - `POST /users/{username}/commissions/watch` and `DELETE …/watch` → `CommissionsResponse`: "Tell me when they
 *   open" (a follower only), idempotent.
 *
 * The filters `open`, `kind`, `currency`, `priceMin`, `priceMax` (`CommissionFilterQuery`) are query parameters of
 * `GET /search` (people), `GET /tags/{tag}/posts` and `GET /posts` (Explore).
 */

// The lists and limits live beside the schemas, not in them (commission-lists.ts): the web app's lazy pages read
// them, and a schema module's constants are bundled with the signed-in shell that every page loads.
export {
  COMMISSION_CURRENCIES,
  COMMISSION_KIND_LABELS,
  COMMISSION_KINDS,
  COMMISSION_LIMITS,
  type CommissionCurrency,
  type CommissionKind,
} from '../commission-lists.js';
import { COMMISSION_CURRENCIES, COMMISSION_KINDS, COMMISSION_LIMITS } from '../commission-lists.js';

const kind = Type.Enum([...COMMISSION_KINDS], {
  errorMessage: `kind must be one of ${COMMISSION_KINDS.join(', ')}`,
});
const currency = Type.Enum([...COMMISSION_CURRENCIES], {
  errorMessage: `currency must be an ISO 4217 code among ${COMMISSION_CURRENCIES.join(', ')}`,
});
const price = Type.Integer({
  minimum: 0,
  maximum: COMMISSION_LIMITS.priceMax,
  errorMessage: `a price must be a whole number from 0 to ${COMMISSION_LIMITS.priceMax}, in whole units of its currency (50 for 50 €)`,
});
/** A BCP 47 language tag ("en", "pt-BR", "zh-Hant"); the server keeps its canonical form. */
const language = Type.String({
  maxLength: 35,
  pattern: '^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$',
  errorMessage: 'each language must be a BCP 47 tag, like en, fr or pt-BR',
});

export const CommissionPrice = Type.Object(
  {
    currency,
    min: price,
    max: price,
  },
  { description: 'The range of prices in whole units of the currency (50 for 50 €); min ≤ max' },
);
export type CommissionPrice = Static<typeof CommissionPrice>;

export const CommissionExample = Type.Object({
  _id: Id,
  picture: Type.Union([Picture, Type.Null()], { description: 'Its first picture; null for a work of words only' }),
  contentWarning: Type.Union([Type.String(), Type.Null()], { description: 'Cover it until shown when not null' }),
  content: Type.String({ description: 'The first 140 characters of its words' }),
});
export type CommissionExample = Static<typeof CommissionExample>;

export const Commissions = Type.Object({
  open: Type.Boolean({ description: 'Open for commissions now; false also for an artist who never said' }),
  kinds: Type.Array(kind, {
    maxItems: COMMISSION_KINDS.length,
    description: 'The kinds of work taken, in the list order',
  }),
  kindsNote: Type.String({ description: 'The kinds of work in the artist’s own words' }),
  slots: Type.Union(
    [
      Type.Object({
        total: Type.Integer({ minimum: 1, maximum: COMMISSION_LIMITS.slotsMax }),
        taken: Type.Integer({ minimum: 0, maximum: COMMISSION_LIMITS.slotsMax }),
      }),
      Type.Null(),
    ],
    { description: '"3 of 5 taken": taken ≤ total; null when the artist does not count slots' },
  ),
  price: Type.Union([CommissionPrice, Type.Null()]),
  turnaroundDays: Type.Union([Type.Integer(), Type.Null()], { description: 'A typical turnaround, in days' }),
  terms: Type.String(),
  termsUrl: Type.Union([Type.String(), Type.Null()], { description: 'An https link to the full terms' }),
  languages: Type.Array(Type.String(), {
    maxItems: COMMISSION_LIMITS.languagesMax,
    description: 'BCP 47 tags, canonical ("pt-BR")',
  }),
  examples: Type.Array(CommissionExample, {
    maxItems: COMMISSION_LIMITS.examplesMax,
    description: 'Example works from the artist’s portfolio, in their order; those the viewer may not see are left out',
  }),
  openedAt: Type.Union([DateString, Type.Null()], { description: 'When they last opened; null while never' }),
  updatedAt: Type.Union([DateString, Type.Null()], { description: 'null while never filled in' }),
  viewer: Type.Object(
    {
      isOwner: Type.Boolean(),
      watching: Type.Boolean({ description: 'The viewer asked to be told when the artist opens' }),
      canWatch: Type.Boolean({ description: 'The viewer follows the artist (only followers may ask to be told)' }),
    },
    { description: 'All false when signed out' },
  ),
});
export type Commissions = Static<typeof Commissions>;

export const CommissionsResponse = Type.Object({ commissions: Commissions });
export type CommissionsResponse = Static<typeof CommissionsResponse>;

export const CommissionsBody = Type.Object(
  {
    open: Type.Boolean(),
    kinds: Type.Optional(Type.Array(kind, { maxItems: COMMISSION_KINDS.length, uniqueItems: true })),
    kindsNote: Type.Optional(
      Type.String({
        maxLength: COMMISSION_LIMITS.kindsNoteMax,
        ...NAME_TEXT,
        errorMessage: `kindsNote must be at most ${COMMISSION_LIMITS.kindsNoteMax} characters, on one line`,
      }),
    ),
    slots: Type.Optional(
      Type.Union([
        Type.Object(
          {
            total: Type.Integer({
              minimum: 1,
              maximum: COMMISSION_LIMITS.slotsMax,
              errorMessage: `slots.total must be a whole number from 1 to ${COMMISSION_LIMITS.slotsMax}`,
            }),
            taken: Type.Integer({
              minimum: 0,
              maximum: COMMISSION_LIMITS.slotsMax,
              errorMessage: `slots.taken must be a whole number from 0 to ${COMMISSION_LIMITS.slotsMax}`,
            }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ]),
    ),
    price: Type.Optional(
      Type.Union([Type.Object({ currency, min: price, max: price }, { additionalProperties: false }), Type.Null()]),
    ),
    turnaroundDays: Type.Optional(
      Type.Union([
        Type.Integer({
          minimum: 1,
          maximum: COMMISSION_LIMITS.turnaroundDaysMax,
          errorMessage: `turnaroundDays must be a whole number of days from 1 to ${COMMISSION_LIMITS.turnaroundDaysMax}`,
        }),
        Type.Null(),
      ]),
    ),
    terms: Type.Optional(
      Type.String({
        maxLength: COMMISSION_LIMITS.termsMax,
        ...BODY_TEXT,
        errorMessage: `terms must be at most ${COMMISSION_LIMITS.termsMax} characters, without control characters (line breaks are fine)`,
      }),
    ),
    termsUrl: Type.Optional(
      Type.Union([
        Type.String({
          maxLength: COMMISSION_LIMITS.termsUrlMax,
          pattern: '^https://[^\\s]+$',
          errorMessage: `termsUrl must be an https:// link of at most ${COMMISSION_LIMITS.termsUrlMax} characters`,
        }),
        Type.Null(),
      ]),
    ),
    languages: Type.Optional(
      Type.Array(language, {
        maxItems: COMMISSION_LIMITS.languagesMax,
        errorMessage: `languages must be at most ${COMMISSION_LIMITS.languagesMax} BCP 47 tags, like en, fr or pt-BR`,
      }),
    ),
    examples: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), {
        maxItems: COMMISSION_LIMITS.examplesMax,
        errorMessage: `examples must be at most ${COMMISSION_LIMITS.examplesMax} ids of your own public works`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Your whole panel: what is left out is emptied (a PUT replaces it). Closing keeps the rest for the next opening.',
  },
);
export type CommissionsBody = Static<typeof CommissionsBody>;

/**
 * The filters of the lists that may be narrowed to artists open for commissions (search of people, a tag's posts,
 * Explore). Any of kind, currency or a price implies open. A price filter needs its currency: prices are compared
 * in one currency only (an artist pricing in another currency is left out), never converted.
 */
export const CommissionFilterQuery = Type.Object({
  open: Type.Optional(
    Type.Boolean({ description: 'true: only artists open for commissions (their works, on the posts lists)' }),
  ),
  kind: Type.Optional(
    Type.Enum([...COMMISSION_KINDS], {
      description: 'Only artists who take this kind of work (implies open)',
      errorMessage: `kind must be one of ${COMMISSION_KINDS.join(', ')}`,
    }),
  ),
  currency: Type.Optional(
    Type.Enum([...COMMISSION_CURRENCIES], {
      description: 'The currency of priceMin and priceMax: artists pricing in another currency are left out',
      errorMessage: `currency must be an ISO 4217 code among ${COMMISSION_CURRENCIES.join(', ')}`,
    }),
  ),
  priceMin: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: COMMISSION_LIMITS.priceMax,
      description: 'Artists whose range reaches at least this (their max ≥ priceMin), in whole units of currency',
      errorMessage: `priceMin must be a whole number from 0 to ${COMMISSION_LIMITS.priceMax}`,
    }),
  ),
  priceMax: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: COMMISSION_LIMITS.priceMax,
      description: 'Artists whose range starts at most at this (their min ≤ priceMax): within the budget',
      errorMessage: `priceMax must be a whole number from 0 to ${COMMISSION_LIMITS.priceMax}`,
    }),
  ),
});
export type CommissionFilterQuery = Static<typeof CommissionFilterQuery>;

export const CommissionsUsernameParams = Type.Object({ username: Type.String({ maxLength: 320 }) });
