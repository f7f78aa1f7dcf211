/**
 * Post and comment text cut into what becomes a link: web addresses, #tags and @mentions. The #tag rule is
 * the server's `extractHashtags` (apps/server/src/lib/hashtags.ts): letters, digits and `_` in any script,
 * at most 50, not preceded by a letter, digit, `_` or `&` (so `a#b` and `&#39;` are no tags); the link is
 * the tag in lower case. A mention is a username (ASCII letters, digits, `_` and `.`, 3 to 30, starting
 * with a letter or digit) not preceded by a letter, digit or one of `_ . @ / &` (so an email address is no
 * mention), without trailing dots ("thanks @mira." mentions mira), and not followed by a server's `@host` (a handle
 * on another server is no one here). Inside a web address nothing else is
 * looked for: `https://example.com/#top` is one link, not a tag.
 */
export type RichTextToken =
  | { kind: 'text'; text: string }
  | { kind: 'url'; text: string; href: string }
  | { kind: 'tag'; text: string; tag: string }
  | { kind: 'mention'; text: string; username: string };

/** An http(s) address up to a space, less the punctuation that usually ends the sentence around it. */
const URL = /\bhttps?:\/\/[^\s<>"]+/giu;
const TRAILING_PUNCTUATION = /[.,;:!?'")\]}]+$/u;
const TAG = /(?<![\p{L}\p{N}_&])#([\p{L}\p{N}_]{1,50})/gu;
// Not followed by another @ either: `@bob@pixelfed.example` is someone on another server (text that came from there
// names people so), not the account `bob` here.
const MENTION = /(?<![\p{L}\p{N}_.@/&])@([A-Za-z0-9][A-Za-z0-9_.]{2,29})(?![\p{L}\p{N}_])(?![\p{L}\p{N}_.]*@)/gu;

interface Match {
  index: number;
  token: Exclude<RichTextToken, { kind: 'text' }>;
}

function urlMatches(text: string): Match[] {
  const found: Match[] = [];
  for (const match of text.matchAll(URL)) {
    const raw = withoutTrailingPunctuation(match[0]);
    let href: string;
    try {
      const url = new globalThis.URL(raw);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
      href = url.href;
    } catch {
      continue;
    }
    found.push({ index: match.index, token: { kind: 'url', text: raw, href } });
  }
  return found;
}

/** A closing bracket that closes one opened inside the address stays (`…/Sunflowers_(painting)`). */
function withoutTrailingPunctuation(raw: string): string {
  const trimmed = raw.replace(TRAILING_PUNCTUATION, '');
  const rest = raw.slice(trimmed.length);
  const opened = (trimmed.match(/\(/g)?.length ?? 0) - (trimmed.match(/\)/g)?.length ?? 0);
  return rest.startsWith(')') && opened > 0 ? `${trimmed})` : trimmed;
}

function wordMatches(text: string, offset: number): Match[] {
  const found: Match[] = [];
  for (const match of text.matchAll(TAG)) {
    found.push({ index: offset + match.index, token: { kind: 'tag', text: match[0], tag: match[1]!.toLowerCase() } });
  }
  for (const match of text.matchAll(MENTION)) {
    const username = match[1]!.replace(/\.+$/u, '');
    if (username.length < 3) continue;
    found.push({ index: offset + match.index, token: { kind: 'mention', text: `@${username}`, username } });
  }
  return found;
}

/** `text` as a list of plain runs and links, in order; joined, their texts give `text` back. */
export function tokenizeRichText(text: string): RichTextToken[] {
  const urls = urlMatches(text);
  const matches: Match[] = [...urls];
  // Tags and mentions only between the addresses.
  let from = 0;
  for (const { index, token } of [...urls, { index: text.length, token: { text: '' } }]) {
    matches.push(...wordMatches(text.slice(from, index), from));
    from = index + token.text.length;
  }
  matches.sort((a, b) => a.index - b.index);

  const tokens: RichTextToken[] = [];
  let at = 0;
  for (const { index, token } of matches) {
    if (index < at) continue;
    if (index > at) tokens.push({ kind: 'text', text: text.slice(at, index) });
    tokens.push(token);
    at = index + token.text.length;
  }
  if (at < text.length) tokens.push({ kind: 'text', text: text.slice(at) });
  return tokens;
}
