import { escapeHtml, textHtml as linkedHtml } from '../../../lib/text-html.js';

export { escapeHtml };

/**
 * A text as the HTML Mastodon's entities carry (lib/text-html.ts): its tags link to our tag pages, its mentions to
 * the profiles of that name here; '' for an empty text.
 */
export function textHtml(text: string, origin: string): string {
  return linkedHtml(text, {
    tag: (tag) => `${origin}/tags/${encodeURIComponent(tag)}`,
    profile: (username) => `${origin}/${encodeURIComponent(username)}`,
  });
}

/** A URL as clients need it: absolute (ours are served from the site's own paths). */
export const absolute = (url: string, origin: string): string => (/^https?:\/\//i.test(url) ? url : `${origin}${url}`);
