/**
 * An http(s) address up to a space, as the web app finds it (apps/web/src/lib/rich-text-tokens.ts): a link
 * there, so never a tag or a mention here (`https://example.com/#top` is no #top).
 */
export const WEB_ADDRESS = /\bhttps?:\/\/[^\s<>"]+/giu;

/** The text with each web address blanked out, so that what is found in it is at the same place. */
export function withoutUrls(text: string): string {
  return text.replace(WEB_ADDRESS, (address) => ' '.repeat(address.length));
}
