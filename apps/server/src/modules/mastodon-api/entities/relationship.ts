/** Mastodon's Relationship (https://docs.joinmastodon.org/entities/Relationship/). */
export interface MastoRelationship {
  id: string;
  following: boolean;
  showing_reblogs: boolean;
  notifying: boolean;
  languages: string[] | null;
  followed_by: boolean;
  blocking: boolean;
  blocked_by: boolean;
  muting: boolean;
  muting_notifications: boolean;
  requested: boolean;
  requested_by: boolean;
  domain_blocking: boolean;
  endorsed: boolean;
  note: string;
}

/** What we know between the viewer and one account (follows both ways, blocks both ways, the viewer's mute). */
export interface RelationFacts {
  following: boolean;
  followedBy: boolean;
  blocking: boolean;
  blockedBy: boolean;
  muting: boolean;
  /** A follow of someone on another server waiting for their server's Accept. */
  requested?: boolean;
}

/**
 * The viewer's relationship with an account. Follows need no approval here (`requested_by` false), a mute hides
 * the person's notifications too (`muting_notifications` = `muting`); there are no boosts to hide, no per-follow
 * notifications or languages, no private notes, no featured accounts, no domain blocks of a person's own.
 */
export function toRelationship(id: string, facts: RelationFacts): MastoRelationship {
  return {
    id,
    following: facts.following,
    showing_reblogs: facts.following,
    notifying: false,
    languages: null,
    followed_by: facts.followedBy,
    blocking: facts.blocking,
    blocked_by: facts.blockedBy,
    muting: facts.muting,
    muting_notifications: facts.muting,
    requested: facts.requested ?? false,
    requested_by: false,
    domain_blocking: false,
    endorsed: false,
    note: '',
  };
}
