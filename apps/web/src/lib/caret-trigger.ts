/**
 * The #tag or @mention being typed at the caret, for the composer's and the comment box's suggestions,
 * found by the same rules as the links (lib/rich-text-tokens.ts): a `#` or `@` not preceded by a letter,
 * digit or `_` (nor `.`, `@`, `/`, `&` for a mention), then what was typed after it, up to the caret.
 */
export interface CaretTrigger {
  kind: 'tag' | 'mention';
  /** What was typed after the `#` or `@` (may be empty: the sign was just typed). */
  query: string;
  /** Where the `#` or `@` is. */
  start: number;
  /** Where the word ends (the caret, or further when the caret is inside the word). */
  end: number;
}

const TAG_CHAR = /[\p{L}\p{N}_]/u;
const MENTION_CHAR = /[A-Za-z0-9_.]/;
const NOT_BEFORE_TAG = /[\p{L}\p{N}_&]/u;
const NOT_BEFORE_MENTION = /[\p{L}\p{N}_.@/&]/u;
const TAG_MAX = 50;
const USERNAME_MAX = 30;

/** The tag or mention the caret is in or just after, or null. */
export function caretTrigger(text: string, caret: number): CaretTrigger | null {
  // Walk back over characters either kind allows (a tag's are a superset but for `.`).
  let start = caret;
  while (start > 0 && (TAG_CHAR.test(text[start - 1]!) || text[start - 1] === '.')) start -= 1;
  const sign = text[start - 1];
  if (sign !== '#' && sign !== '@') return null;
  const kind = sign === '#' ? 'tag' : 'mention';
  const before = text[start - 2];
  if (before !== undefined && (kind === 'tag' ? NOT_BEFORE_TAG : NOT_BEFORE_MENTION).test(before)) return null;

  const allowed = kind === 'tag' ? TAG_CHAR : MENTION_CHAR;
  const typed = text.slice(start, caret);
  if (![...typed].every((char) => allowed.test(char))) return null;
  let end = caret;
  while (end < text.length && allowed.test(text[end]!)) end += 1;
  if ([...text.slice(start, end)].length > (kind === 'tag' ? TAG_MAX : USERNAME_MAX)) return null;
  return { kind, query: typed, start: start - 1, end };
}

/**
 * `text` with the trigger's word replaced by `#tag` or `@username` and a space (unless one follows already),
 * and where the caret goes: after that space.
 */
export function replaceTrigger(text: string, trigger: CaretTrigger, word: string): { text: string; caret: number } {
  const sign = trigger.kind === 'tag' ? '#' : '@';
  const after = text.slice(trigger.end);
  const inserted = `${sign}${word}${after.startsWith(' ') ? '' : ' '}`;
  const caret = trigger.start + inserted.length + (after.startsWith(' ') ? 1 : 0);
  return { text: text.slice(0, trigger.start) + inserted + after, caret };
}
