import type { Comment, Post } from '@share-arts/contract';
import { extractHashtags } from '../../../lib/hashtags.js';
import { isoDate, type MastoAccount } from './account.js';
import { textHtml } from './html.js';
import { toMediaAttachment, type MastoMediaAttachment } from './media-attachment.js';
import { tagUrl, type MastoStatusTag } from './tag.js';

/** Status.mentions' entries. */
export interface MastoMention {
  id: string;
  username: string;
  url: string;
  acct: string;
}

/** Mastodon's Status (https://docs.joinmastodon.org/entities/Status/). */
export interface MastoStatus {
  id: string;
  uri: string;
  url: string | null;
  created_at: string;
  edited_at: string | null;
  account: MastoAccount;
  content: string;
  text?: string | null;
  visibility: 'public' | 'unlisted' | 'private' | 'direct';
  sensitive: boolean;
  spoiler_text: string;
  media_attachments: MastoMediaAttachment[];
  application: { name: string; website: string | null } | null;
  mentions: MastoMention[];
  tags: MastoStatusTag[];
  emojis: [];
  reblogs_count: number;
  favourites_count: number;
  replies_count: number;
  /** Mastodon 4.5's quotes: none here, and nobody may quote (`current_user` denied). */
  quotes_count: number;
  quote_approval: { automatic: string[]; manual: string[]; current_user: 'denied' };
  quote: null;
  in_reply_to_id: string | null;
  in_reply_to_account_id: string | null;
  reblog: MastoStatus | null;
  poll: null;
  card: null;
  language: string | null;
  favourited?: boolean;
  reblogged?: boolean;
  muted?: boolean;
  bookmarked?: boolean;
  pinned?: boolean;
  filtered?: [];
}

export interface StatusExtras {
  /** The people its text mentions that are accounts here, as the route found them (username → account). */
  mentions?: MastoMention[];
  /** The author pinned it (an artist's pins, up to 6): only on the author's own statuses. */
  pinned?: boolean;
  /** Whether the viewer is signed in: the viewer's flags (favourited…) are sent only then, as Mastodon does. */
  signedIn: boolean;
}

/** Quotes (Mastodon 4.5) do not exist here: none, and nobody may quote. */
const NO_QUOTES = {
  quotes_count: 0,
  quote_approval: { automatic: [], manual: [], current_user: 'denied' as const },
  quote: null,
};

const statusTags = (content: string, origin: string): MastoStatusTag[] =>
  extractHashtags(content).map((name) => ({ name, url: tagUrl(name, origin) }));

/**
 * One of our works as a Status, as the viewer sees it (`post` comes from the posts service, so what the viewer
 * may see was already decided there). The mapping:
 * - `content` is our plain text as HTML (escaped; #tags, @mentions and web addresses as Mastodon's links);
 * - every work is public here: `visibility` is public;
 * - a content warning is `sensitive` with the warning as `spoiler_text` ("nudity", "blood", … or the artist's words);
 * - `favourites_count` counts likes (here and from other servers), `replies_count` comments; nothing is boosted
 *   here, so `reblogs_count` is 0, `reblog` null and `reblogged` false;
 * - `media_attachments` are its pictures in order (up to 20; Mastodon's own limit is 4, its clients show more);
 * - `language` is the work's, as its artist said it (issue 43; null: not said);
 * - `poll`, `card` and `application` are null: we keep none of them.
 * A work from another server (following out) keeps its own `uri` and `url` there.
 */
export function toStatus(post: Post, account: MastoAccount, origin: string, extras: StatusExtras): MastoStatus {
  const remote = post.origin;
  return {
    id: post._id,
    uri: remote ? remote.url : `${origin}/ap/posts/${post._id}`,
    url: remote ? remote.url : `${origin}/posts/${post._id}`,
    created_at: isoDate(post.createdAt),
    edited_at: post.editedAt ? isoDate(post.editedAt) : null,
    account,
    content: textHtml(post.content, origin),
    visibility: 'public',
    sensitive: post.contentWarning !== null,
    spoiler_text: post.contentWarning ?? '',
    media_attachments: post.media.map((picture) => toMediaAttachment(picture, origin)),
    application: null,
    mentions: extras.mentions ?? [],
    tags: statusTags(post.content, origin),
    emojis: [],
    reblogs_count: 0,
    favourites_count: post.likes.likeCount,
    replies_count: post.commentCount,
    ...NO_QUOTES,
    in_reply_to_id: null,
    in_reply_to_account_id: null,
    reblog: null,
    poll: null,
    card: null,
    language: post.language,
    ...(extras.signedIn
      ? {
          favourited: post.viewer.liked,
          reblogged: false,
          muted: false,
          bookmarked: post.viewer.bookmarked,
          pinned: extras.pinned ?? false,
          filtered: [],
        }
      : {}),
  };
}

/**
 * A comment as a Status (comments are not works here): a reply to its work, `in_reply_to_id` the work's id and
 * `in_reply_to_account_id` its artist's, no pictures, public. A comment's upvotes are its `favourites_count`
 * and the viewer's upvote its `favourited`; a comment has no replies of its own (replies_count 0), cannot be
 * bookmarked or pinned. Its `url` is its work's page, where it is shown.
 */
export function commentToStatus(
  comment: Comment,
  account: MastoAccount,
  postAuthorId: string,
  origin: string,
  extras: StatusExtras,
): MastoStatus {
  return {
    id: comment._id,
    uri: `${origin}/ap/comments/${comment._id}`,
    url: `${origin}/posts/${comment.postId}`,
    created_at: isoDate(comment.createdAt),
    edited_at: comment.edited ? isoDate(comment.updatedAt) : null,
    account,
    content: textHtml(comment.content, origin),
    visibility: 'public',
    sensitive: false,
    spoiler_text: '',
    media_attachments: [],
    application: null,
    mentions: extras.mentions ?? [],
    tags: statusTags(comment.content, origin),
    emojis: [],
    reblogs_count: 0,
    favourites_count: comment.votes.upvoteCount,
    replies_count: 0,
    ...NO_QUOTES,
    in_reply_to_id: comment.postId,
    in_reply_to_account_id: postAuthorId,
    reblog: null,
    poll: null,
    card: null,
    language: null,
    ...(extras.signedIn
      ? {
          favourited: comment.viewerVote === 'up',
          reblogged: false,
          muted: false,
          bookmarked: false,
          pinned: false,
          filtered: [],
        }
      : {}),
  };
}
