import { HttpError } from '../../lib/http-error.js';
import type { MastoStatus } from './entities/index.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { selectCommentPost } from './mastodon-api.sql.js';

/** What a notification or an event names: a work, or a comment on one. */
export interface StatusRef {
  postId: string | null;
  commentId: string | null;
}

const is404 = (error: unknown) => error instanceof HttpError && error.statusCode === 404;

/**
 * The Statuses these refer to as the viewer sees them, in order, null where the viewer may not see it (gone,
 * hidden by a moderator, a blocked pair, a muted author's comment): the works through the posts service in one
 * read, each comment through the comments service (whose work must be there for the viewer too).
 */
export async function statusesOf(
  deps: Pick<MastodonDeps, 'posts' | 'comments' | 'present' | 'shared'>,
  refs: readonly StatusRef[],
  viewerId: string | null,
  at: string,
): Promise<(MastoStatus | null)[]> {
  const { posts, present } = deps;
  const postIds = [...new Set(refs.flatMap((ref) => (ref.commentId === null && ref.postId ? [ref.postId] : [])))];
  const works = await present.statuses(await posts.getPosts(postIds, viewerId), viewerId, at);
  const byId = new Map(works.map((status) => [status.id, status]));
  const replies = new Map<string, MastoStatus | null>();
  for (const ref of refs) {
    if (ref.commentId === null || replies.has(ref.commentId)) continue;
    replies.set(ref.commentId, await commentStatus(deps, ref.commentId, viewerId, at));
  }
  return refs.map((ref) =>
    ref.commentId !== null ? (replies.get(ref.commentId) ?? null) : ref.postId ? (byId.get(ref.postId) ?? null) : null,
  );
}

async function commentStatus(
  deps: Pick<MastodonDeps, 'posts' | 'comments' | 'present' | 'shared'>,
  commentId: string,
  viewerId: string | null,
  at: string,
): Promise<MastoStatus | null> {
  const row = await selectCommentPost(deps.shared.db, commentId, viewerId);
  if (!row) return null;
  try {
    await deps.posts.getPost(row.post_id, viewerId);
    const comment = await deps.comments.getComment(commentId, viewerId);
    const [status] = await deps.present.commentStatuses([comment], row.author_id, viewerId, at);
    return status ?? null;
  } catch (error) {
    if (is404(error)) return null;
    throw error;
  }
}
