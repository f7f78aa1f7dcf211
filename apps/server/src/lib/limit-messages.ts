/**
 * The sentences that say a limit with its number (issue 43): a schema's length, size and count limits as
 * describeValidationError (plugins/errors.ts) words them, and the same limits checked in code. Each is an ICU
 * message filled with its values in the reader's language; `{name}` is the field as the API names it (`content`,
 * `query parameter limit`), which stays as written. In English they read exactly as they did when they were
 * concatenated: a number is written as it is (`5000`, not `5,000`).
 */
export const LIMIT_MESSAGES = {
  minLength: '{name} must be at least {limit} characters long.',
  maxLength: '{name} must be at most {limit} characters long.',
  minimum: '{name} must be at least {limit}.',
  maximum: '{name} must be at most {limit}.',
  maxItems: '{name} must have at most {limit} items.',
  names: 'First and last name must be at most {limit} characters each.',
} as const;
