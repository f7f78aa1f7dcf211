/** Mastodon's Tag (https://docs.joinmastodon.org/entities/Tag/): a hashtag, its page here, its use by day. */
export interface MastoTag {
  id?: string;
  name: string;
  url: string;
  history: { day: string; uses: string; accounts: string }[];
  following?: boolean;
  featuring?: boolean;
}

/** A status's tag (Status.tags: name and url only, as Mastodon sends them there). */
export interface MastoStatusTag {
  name: string;
  url: string;
}

export const tagUrl = (name: string, origin: string): string =>
  `${origin}/tags/${encodeURIComponent(name.toLowerCase())}`;

/**
 * A tag as Mastodon's Tag entity. We keep a tag's total count, not its use per day: `history` is [] unless the
 * caller knows it (Mastodon sends the last 7 days; clients draw [] as no trend). `following` when the viewer is
 * known.
 */
export function toTag(
  name: string,
  origin: string,
  extras: { following?: boolean; history?: MastoTag['history'] } = {},
): MastoTag {
  const lower = name.toLowerCase();
  return {
    id: lower,
    name: lower,
    url: tagUrl(lower, origin),
    history: extras.history ?? [],
    ...(extras.following === undefined ? {} : { following: extras.following }),
    featuring: false,
  };
}
