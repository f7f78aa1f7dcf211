import { INQUIRY_LIMITS } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { INQUIRY_TEXT } from './limits';

describe('the inquiries’ limits', () => {
  it('are the contract’s', () => {
    expect(INQUIRY_TEXT).toEqual({
      body: INQUIRY_LIMITS.bodyMax,
      message: INQUIRY_LIMITS.messageMax,
      reason: INQUIRY_LIMITS.reasonMax,
      references: INQUIRY_LIMITS.referencesMax,
    });
  });
});
