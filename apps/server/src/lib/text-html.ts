import { HASHTAG } from './hashtags.js';
import { MENTION } from './mentions.js';
import { WEB_ADDRESS, withoutUrls } from './text-urls.js';

/**
 * Our texts (a work's words, a comment, a bio) are plain text with #tags, @mentions and web addresses; the fediverse's
 * Notes and Mastodon's API entities carry HTML. This writes the HTML Mastodon writes (its `hashtag`, `mention`,
 * `h-card` classes), every character of the text escaped: the federation module for its objects, the Mastodon API for
 * its entities.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or an attribute's value: the five characters HTML gives a meaning, escaped. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** Where the links of a text lead: a tag's page, and a mentioned account's profile when it is there. */
export interface TextLinks {
  tag(tag: string): string;
  /** The profile page of the account `username` (lower case) names; undefined when there is none. */
  profile(username: string): string | undefined;
}

interface Token {
  start: number;
  end: number;
  html: string;
}

/**
 * One line's links, in the markup Mastodon writes and reads (its hashtag and mention classes): web addresses as
 * they are written, `#tags` to our tag pages, `@names` of accounts that are there to their profiles.
 */
function lineTokens(line: string, links: TextLinks): Token[] {
  const tokens: Token[] = [];
  for (const match of line.matchAll(WEB_ADDRESS)) {
    const href = escapeHtml(match[0]);
    tokens.push({
      start: match.index,
      end: match.index + match[0].length,
      html: `<a href="${href}" rel="nofollow noopener" target="_blank">${href}</a>`,
    });
  }
  const blanked = withoutUrls(line);
  for (const match of blanked.matchAll(HASHTAG)) {
    const tag = match[1]!;
    const start = match.index + match[0].length - tag.length - 1;
    tokens.push({
      start,
      end: start + tag.length + 1,
      html: `<a href="${escapeHtml(links.tag(tag.toLowerCase()))}" class="mention hashtag" rel="tag">#<span>${escapeHtml(tag)}</span></a>`,
    });
  }
  for (const match of blanked.matchAll(MENTION)) {
    // Trailing dots end the sentence ("thanks @mira."), as lib/mentions.ts reads them.
    const username = match[1]!.replace(/\.+$/u, '');
    const href = links.profile(username.toLowerCase());
    if (!href || username.length < 3) continue;
    tokens.push({
      start: match.index,
      end: match.index + username.length + 1,
      html: `<span class="h-card"><a href="${escapeHtml(href)}" class="u-url mention">@<span>${escapeHtml(username)}</span></a></span>`,
    });
  }
  return tokens.sort((a, b) => a.start - b.start);
}

function lineHtml(line: string, links: TextLinks): string {
  let html = '';
  let at = 0;
  for (const token of lineTokens(line, links)) {
    if (token.start < at) continue;
    html += escapeHtml(line.slice(at, token.start)) + token.html;
    at = token.end;
  }
  return html + escapeHtml(line.slice(at));
}

/**
 * A text (a work's words, a bio) as HTML paragraphs: a blank line starts a paragraph, a line break is `<br>`,
 * every character of the text escaped, and its web addresses, tags and mentions links.
 */
export function textHtml(text: string, links: TextLinks): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map(
      (paragraph) =>
        `<p>${paragraph
          .split('\n')
          .map((line) => lineHtml(line, links))
          .join('<br>')}</p>`,
    )
    .join('');
}
