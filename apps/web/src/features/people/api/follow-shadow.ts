import { createShadow } from '../../../lib/shadow';

/**
 * Follows asked for but not confirmed yet, by user id: every Follow button, profile count and post menu
 * showing the person draws it on top of its cached copy.
 */
export const followShadow = createShadow<{ follows?: boolean }>();

/** Whether the viewer has asked to follow `userId` (true/false) and the server has not confirmed it yet (undefined). */
export function useFollowShadow(userId: string): boolean | undefined {
  return followShadow.useEntry(userId)?.follows;
}
