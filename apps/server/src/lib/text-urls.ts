/**
 * An http(s) address up to a space, as the web app finds it (apps/web/src/lib/rich-text-tokens.ts): a link
 * there, so never a tag or a mention here (`https://example.com/#top` is no #top).
 */
const URL = /\bhttps?:\/\/[^\s<>"]+/giu;

/** The text with each web address blanked out, so that what is found in it is at the same place. */
export function withoutUrls(text: string): string {
  return text.replace(URL, (address) => ' '.repeat(address.length));
}
