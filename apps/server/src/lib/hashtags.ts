import { withoutUrls } from './text-urls.js';

/**
 * Letters, digits and underscores after '#', in any script (group 1: the tag); the match starts with the
 * character before '#', if any. Search it in `withoutUrls(text)`.
 */
export const HASHTAG = /(?:^|[^\p{L}\p{N}_&])#([\p{L}\p{N}_]{1,50})/gu;

/** The distinct #hashtags of a text, lower-case and without '#', in order of appearance (at most 30); none inside a web address. */
export function extractHashtags(text: string): string[] {
  const tags = new Set<string>();
  for (const match of withoutUrls(text).matchAll(HASHTAG)) {
    tags.add(match[1]!.toLowerCase());
    if (tags.size === 30) break;
  }
  return [...tags];
}
