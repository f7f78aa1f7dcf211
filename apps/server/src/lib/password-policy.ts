import { dictionary } from '@zxcvbn-ts/language-common';
import { normalizePassword } from './password.js';

/**
 * The 49,000 most common passwords of zxcvbn-ts's common dictionary (from leaked password lists,
 * most frequent first), lower-case. Guessers try these first, so an account with one falls to the
 * few guesses a login limit still allows.
 */
const COMMON = new Set(dictionary['passwords-common']);

/** Spaces, control characters and invisible ones only: a password that looks like nothing. */
const BLANK = /^[\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]*$/u;

/** What is wrong with a new password, as a sentence that says what to do; null when it will do. */
export function passwordProblem(password: string): string | null {
  const normalized = normalizePassword(password);
  if (BLANK.test(normalized)) return 'password must not be blank: use words or characters you can see.';
  const folded = normalized.toLowerCase();
  if (COMMON.has(folded) || COMMON.has(folded.trim())) {
    return 'password is one of the most common passwords, which are guessed first: choose a less common one (a few unrelated words work well).';
  }
  return null;
}
