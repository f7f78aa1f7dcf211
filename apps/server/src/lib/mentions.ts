import { TAG_LIMITS } from '@share-arts/contract';
import { withoutUrls } from './text-urls.js';

/**
 * `@username`: a username's characters (ASCII letters, digits, `_` and `.`, 3 to 30, starting with a
 * letter or digit), not preceded by a letter, digit or one of `_ . @ / &` (an email address or a web
 * address is no mention) nor followed by another letter or digit, nor by a server's `@host` (`@bob@pixelfed.example`
 * is someone on another server, not the account `bob` here). The web app links the same ones
 * (apps/web/src/lib/rich-text-tokens.ts).
 */
export const MENTION = /(?<![\p{L}\p{N}_.@/&])@([A-Za-z0-9][A-Za-z0-9_.]{2,29})(?![\p{L}\p{N}_])(?![\p{L}\p{N}_.]*@)/gu;

/**
 * The distinct usernames a text mentions, lower-case, in order of appearance, at most
 * TAG_LIMITS.mentionsPerText (the first ones written); trailing dots end the sentence ("thanks @mira.").
 */
export function extractMentions(text: string): string[] {
  const names = new Set<string>();
  for (const match of withoutUrls(text).matchAll(MENTION)) {
    const username = match[1]!.replace(/\.+$/u, '').toLowerCase();
    if (username.length < 3) continue;
    names.add(username);
    if (names.size === TAG_LIMITS.mentionsPerText) break;
  }
  return [...names];
}
