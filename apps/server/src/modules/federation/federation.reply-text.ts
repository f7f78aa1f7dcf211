import { LIMITS } from '@share-arts/contract';
import { Parser } from 'htmlparser2';

/**
 * A reply's HTML (a remote Note's `content`, issue 39) as a comment's text: a comment here is plain text whose web
 * addresses the web app links, so what arrives keeps its words and links and nothing else. Mastodon and Pixelfed
 * write `<p>` paragraphs, `<br>` line breaks, links (a long one shortened for display with `invisible` and
 * `ellipsis` spans) and mentions and hashtags as links (`class="u-url mention"`, `class="mention hashtag"`).
 */

/** Elements whose text is never shown (their content is code or metadata, not words). */
const UNSHOWN = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'object',
  'svg',
  'math',
  'head',
  'title',
]);
/** Elements that stand as paragraphs of their own. */
const BLOCKS = new Set([
  'p',
  'div',
  'blockquote',
  'pre',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'section',
  'article',
  'figure',
  'table',
  'tr',
]);

/** An http(s) URL as written, or null (anything else, a `javascript:` link, keeps only its text). */
const webUrl = (href: string | undefined): URL | null => {
  const url = href ? URL.parse(href.trim()) : null;
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url : null;
};

/** A link as a comment shows one: a mention as `@user@host`, a tag as its text, a web address as its URL. */
function linkText(url: URL | null, text: string, classes: string, localHost: string): string {
  const words = text.replace(/\s+/g, ' ').trim();
  if (!url) return words;
  const classList = classes.split(/\s+/);
  if (classList.includes('hashtag') || words.startsWith('#')) return words;
  if (classList.includes('mention') || /^@[^\s@]+$/u.test(words)) {
    const user = words.replace(/^@/, '').split('@')[0];
    if (user) return url.host === localHost ? `@${user}` : `@${user}@${url.host}`;
  }
  // The text Mastodon shows of a long link is the URL shortened: the URL is the link.
  const bare = (value: string) => value.replace(/^https?:\/\//, '').replace(/\/$/, '');
  if (!words || words.endsWith('…') || bare(url.href).startsWith(bare(words))) return url.href;
  // Other words: both, the URL in angle brackets (which end a web address, so it stays a link).
  return `${words} <${url.href}>`;
}

/**
 * The HTML's words: paragraphs (and list items, quotes) apart by a blank line, `<br>` a line break, links as
 * linkText writes them, nothing of scripts and styles, entities decoded. Untrusted and possibly malformed: the
 * parser never throws on it, and whatever it makes of it is text.
 */
function htmlWords(html: string, localHost: string): string {
  let out = '';
  let unshown = 0;
  let link: { url: URL | null; classes: string; text: string } | null = null;
  const write = (text: string) => {
    if (unshown > 0) return;
    if (link) link.text += text;
    else out += text;
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (UNSHOWN.has(name)) unshown += 1;
        else if (name === 'br') write('\n');
        else if (BLOCKS.has(name)) write('\n\n');
        else if (name === 'a' && !link && unshown === 0) {
          link = { url: webUrl(attributes.href), classes: attributes.class ?? '', text: '' };
        }
      },
      ontext: write,
      onclosetag(name, implied) {
        if (UNSHOWN.has(name)) unshown = Math.max(0, unshown - 1);
        else if (BLOCKS.has(name)) write('\n\n');
        else if (name === 'a' && link && !implied) {
          const done: { url: URL | null; classes: string; text: string } = link;
          link = null;
          write(linkText(done.url, done.text, done.classes, localHost));
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  const open = link as { url: URL | null; classes: string; text: string } | null;
  if (open) out += linkText(open.url, open.text, open.classes, localHost);
  return out;
}

/**
 * Text as a comment keeps it: no control characters but line breaks, no invisible formatting (a bidi override could
 * make the words read as others'; a zero-width joiner stays, emoji need it), no private-use characters; spaces
 * collapsed, lines trimmed, at most one blank line between paragraphs.
 */
export function shownLines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/(?![\n\u200d])[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu, '')
    .replace(/[^\S\n]+/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The first `max` characters (code points, so no half of an emoji) of a text. */
const firstChars = (text: string, max: number) => [...text].slice(0, max).join('');

export interface ReplyNote {
  /** The Note's `content` (HTML). */
  html: string;
  /** Its `summary`: a content warning. */
  summary: string | null;
  /** How many attachments it has (a comment shows no pictures). */
  attachments: number;
  /** Its page (or id), named where the comment cannot show all of it. */
  url: string;
}

/**
 * A remote reply as a comment's content: its content warning first, visibly ("Content warning: …" and a blank
 * line), its words (htmlWords, shownLines), a line naming its pictures with its URL, and at most the local comment
 * length: a longer one is cut, and ends saying so with its URL. A reply with no words at all is its URL.
 */
export function replyText(note: ReplyNote, localHost: string): string {
  const warning = note.summary ? shownLines(htmlWords(note.summary, localHost)).replace(/\n+/g, ' ') : '';
  const words = shownLines(htmlWords(note.html, localHost));
  const pictures =
    note.attachments > 0
      ? `(${note.attachments === 1 ? 'with a picture' : `with ${note.attachments} pictures`}: ${note.url})`
      : '';
  const text = [warning && `Content warning: ${warning}`, words, pictures].filter(Boolean).join('\n\n') || note.url;
  const max = LIMITS.commentContentMax;
  if ([...text].length <= max) return text;
  const cut = `… (cut here; the whole reply: ${note.url})`;
  if ([...cut].length > max / 2) return `${firstChars(text, max - 1)}…`;
  return `${firstChars(text, max - [...cut].length).trimEnd()}${cut}`;
}

/**
 * A remote work's Note (following out, issue 39) as a post's content: its words (htmlWords, shownLines: hashtags kept
 * as `#tag`, which the post's tags are read from, mentions as `@user@host`), at most the local post length: a longer
 * one is cut, and ends saying so with its page.
 */
export function workText(html: string, url: string, localHost: string): string {
  const text = shownLines(htmlWords(html, localHost));
  const max = LIMITS.postContentMax;
  if ([...text].length <= max) return text;
  const cut = `… (cut here; the whole text: ${url})`;
  if ([...cut].length > max / 2) return `${firstChars(text, max - 1)}…`;
  return `${firstChars(text, max - [...cut].length).trimEnd()}${cut}`;
}

/** A Note's `summary` (a content warning) as one line of at most `max` characters. */
export function warningText(html: string, localHost: string, max: number): string {
  return firstChars(shownLines(htmlWords(html, localHost)).replace(/\n+/g, ' '), max).trim();
}
