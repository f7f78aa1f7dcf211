import { formatDate, formatTime, type Post } from '@share-arts/contract';
import { DEFAULT_POST_PIC_URL } from '../../lib/assets.js';
import { toPicture, type MediaRow } from '../media/index.js';
import { photoUrl } from '../users/index.js';
import type { PostKeyRow, PostRow } from './posts.sql.js';

/**
 * What of a post every reader sees the same: the post cache's part (`cachedPost`), its newest comments
 * without a viewer's votes.
 */
export type SharedPost = Omit<Post, 'commentCount' | 'viewer' | 'moderation'>;

/** `process`: the post's process pictures in order (issue 41), read beside its row (selectProcessPictures). */
export function toSharedPost(row: PostRow, process: readonly MediaRow[] = []): SharedPost {
  const createdAt = new Date(row.created_at);
  const media = row.media.map(toPicture);
  // The first picture is the cover: `picture` and `postPic` are for clients that show one.
  const picture = media[0] ?? null;
  return {
    _id: row.id,
    content: row.content,
    language: row.language,
    userId: row.author_id,
    username: row.username,
    name: `${row.first_name} ${row.last_name}`.trim(),
    userPhoto: photoUrl(row.author_photo_url),
    postPic: picture?.url ?? DEFAULT_POST_PIC_URL,
    picture,
    media,
    process: process.map(toPicture),
    createdAt: formatDate(createdAt),
    updatedAt: formatDate(new Date(row.updated_at)),
    time: formatTime(createdAt),
    likes: {
      likeCount: Number(row.like_count),
      dislikeCount: Number(row.dislike_count),
      likedBy: row.liked_by,
      dislikedBy: row.disliked_by,
    },
    comments: row.comments,
    contentWarning: row.content_warning,
    commentPolicy: row.comment_policy,
    licence: row.licence,
    aiGenerated: row.ai_generated,
    downloadable: row.downloadable,
    ...originOf(row),
    ...(row.imported_from ? { importedFrom: row.imported_from } : {}),
    ...(row.author_open ? { authorOpenForCommissions: true } : {}),
    ...(row.edited_at ? { editedAt: formatDate(new Date(row.edited_at)) } : {}),
  };
}

/**
 * A work from another server (following out, issue 39): its server and its page there (an http(s) URL: a remote
 * server's `url` is not trusted; else its Note's id, which is).
 */
function originOf(row: Pick<PostRow, 'note_iri' | 'note_url'>): Pick<Post, 'origin'> {
  if (!row.note_iri) return {};
  const web = (href: string | null) => {
    const url = href ? URL.parse(href) : null;
    return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url : null;
  };
  const page = web(row.note_url) ?? web(row.note_iri);
  return page ? { origin: { host: URL.parse(row.note_iri)?.host ?? page.host, url: page.href } } : {};
}

/** What a post is to its viewer, from the viewer columns every post query reads. */
export function viewerFlags(
  row: Pick<PostKeyRow, 'viewer_reaction' | 'viewer_bookmarked' | 'viewer_follows_author' | 'viewer_muted_word'>,
  viewerId: string | null,
  authorId: string,
): Post['viewer'] {
  return {
    liked: row.viewer_reaction === 'like',
    disliked: row.viewer_reaction === 'dislike',
    bookmarked: row.viewer_bookmarked,
    followsAuthor: row.viewer_follows_author,
    isAuthor: viewerId !== null && viewerId === authorId,
    mutedWord: row.viewer_muted_word ?? null,
  };
}
