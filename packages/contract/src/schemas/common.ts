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
