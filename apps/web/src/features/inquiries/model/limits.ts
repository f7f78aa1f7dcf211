/**
 * The contract's INQUIRY_LIMITS the pages use, repeated: the contract's module is TypeBox schemas, which the browser
 * does not need (a test checks they agree).
 */
export const INQUIRY_TEXT = { body: 5000, message: 2000, reason: 1000, references: 5 } as const;
