import { Type, type Static } from 'typebox';

export const ErrorBody = Type.Object(
  { errors: Type.Array(Type.String(), { minItems: 1 }) },
  { description: 'Every error: one message a person can act on.' },
);
export type ErrorBody = Static<typeof ErrorBody>;

export const DateString = Type.String({
  description: 'YYYY-MM-DDTHH:mm:ssZ, UTC',
  examples: ['2026-11-22T07:57:37+00:00'],
});

export const Id = Type.String({ description: 'A UUID', maxLength: 64 });

export const HealthResponse = Type.Object({
  status: Type.Literal('ok'),
  database: Type.Literal('up'),
});

/**
 * Text people write. Names refuse control characters and the invisible marks that reverse the direction
 * of text (they let one name pose as another); longer text keeps line breaks and tabs but refuses the
 * other control characters. `patternMessage` is the sentence the API answers when a pattern fails.
 */
export const NAME_TEXT = {
  pattern: '^[^\\u0000-\\u001F\\u007F-\\u009F\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*$',
  patternMessage: 'must not contain control characters or text-direction marks',
} as const;
export const BODY_TEXT = {
  pattern: '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$',
  patternMessage: 'must not contain control characters (line breaks and tabs are fine)',
} as const;
