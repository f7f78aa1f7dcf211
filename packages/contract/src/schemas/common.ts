import { Type, type Static } from 'typebox';

export const ErrorBody = Type.Object(
  {
    errors: Type.Array(Type.String(), { minItems: 1 }),
    untranslated: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'The same messages in English, when `errors` are translated (the request asked for another language by Accept-Language, issue 43): for programs that act on what a refusal says',
      }),
    ),
  },
  { description: 'Every error: one message a person can act on.' },
);
export type ErrorBody = Static<typeof ErrorBody>;

export const DateString = Type.String({
  description: 'YYYY-MM-DDTHH:mm:ssZ, UTC',
  examples: ['2026-11-22T07:57:37+00:00'],
});

export const Id = Type.String({ description: 'A UUID', maxLength: 64 });

export const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')], {
    description: 'degraded: the server answers reads, but something listed in `problems` is failing',
  }),
  database: Type.Literal('up'),
  storage: Type.Union([Type.Literal('ok'), Type.Literal('failing')], {
    description: 'failing: the media folder takes no writes (a full or read-only disk); uploads answer 503',
  }),
  problems: Type.Optional(Type.Array(Type.String(), { maxItems: 4, description: 'What is failing, in words' })),
});

/** What GET /api/ready found of each dependency (issue 25); `off`: not configured (Redis without REDIS_URL). */
export const ReadyChecks = Type.Object({
  database: Type.Union([Type.Literal('up'), Type.Literal('down')]),
  storage: Type.Union([Type.Literal('up'), Type.Literal('down')], {
    description: "the pictures' storage (the media folder, or the S3 bucket) takes reads and writes",
  }),
  redis: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('off')]),
  jobs: Type.Union([Type.Literal('up'), Type.Literal('down')], {
    description: 'the background job queue (mail, sweeps) answers',
  }),
});
export type ReadyChecks = Static<typeof ReadyChecks>;

/**
 * GET /api/ready's 200. `degraded`: Redis or the job queue does not answer, but requests are still served
 * (the limits are counted in each process meanwhile; jobs wait in the database), so the machine stays in the
 * load balancer; `problems` says what.
 */
export const ReadyResponse = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('degraded')]),
  checks: ReadyChecks,
  problems: Type.Optional(Type.Array(Type.String(), { minItems: 1, maxItems: 3 })),
});

/** GET /api/ready's 503: the error shape, with each check's state. */
export const NotReadyResponse = Type.Object(
  { errors: Type.Array(Type.String(), { minItems: 1 }), checks: ReadyChecks },
  { description: 'What is down, one message each, and every check' },
);

/** The scripts whose letters join, where ZWNJ and ZWJ between letters are spelling. */
const JOINING_SCRIPTS = [
  'Arabic',
  'Syriac',
  'Nko',
  'Mongolian',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Myanmar',
  'Khmer',
]
  .map((script) => `\\p{Script=${script}}`)
  .join('');

/**
 * Text people write. Names refuse control characters and the invisible marks that reverse the direction
 * of text (they let one name pose as another); longer text keeps line breaks and tabs but refuses the
 * other control characters. `patternMessage` is the sentence the API answers when a pattern fails.
 */
export const NAME_TEXT = {
  // Refused: control and format characters (text-direction marks, zero-width spaces and joiners, tags,
  // U+2060, U+FEFF, U+061C), line and paragraph separators, every Default_Ignorable code point (the
  // Hangul fillers U+115F, U+1160, U+3164, U+FFA0, variation selectors) and the blank braille cell: they
  // draw nothing, so a name made of them looks blank and one with them looks like another. Emoji keep
  // working: a zero-width joiner between two pictographs and a variation selector after one; so do the
  // joiners of the scripts that need them.
  pattern:
    '^(?:[^\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Default_Ignorable_Code_Point}\\u2800]' +
    '|(?<=\\p{Extended_Pictographic}[\\uFE0F\\u{1F3FB}-\\u{1F3FF}]?)\\u200D(?=\\p{Extended_Pictographic})' +
    '|(?<=\\p{Extended_Pictographic})[\\uFE0E\\uFE0F]' +
    // The joiners are spelling in the scripts that shape letters together (علی‌رضا in Persian, क्‍ष in
    // Hindi), where they change what is drawn: allowed between two letters (or marks) of such a script.
    `|(?<=[${JOINING_SCRIPTS}]\\p{M}*)[\\u200C\\u200D](?=[${JOINING_SCRIPTS}])` +
    ')*$',
  patternMessage:
    'must not contain control characters, text-direction marks or invisible characters (zero-width spaces or joiners, fillers, tags)',
} as const;
export const BODY_TEXT = {
  pattern: '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$',
  patternMessage: 'must not contain control characters (line breaks and tabs are fine)',
} as const;
