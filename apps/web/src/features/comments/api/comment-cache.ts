import type { Comment, CommentPage } from '@share-arts/contract';
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import { commentKeys, type CommentOrder } from './comment-keys';

export type CommentListData = InfiniteData<CommentPage, string | null>;

function orderOf(key: QueryKey): CommentOrder {
  return key[key.length - 1] === 'newest' ? 'newest' : 'oldest';
}

/** Applies `mapPages` to every cached list of the post's comments (both orders). */
function mapLists(
  queryClient: QueryClient,
  postId: string,
  mapPages: (pages: CommentPage[], order: CommentOrder) => CommentPage[],
): void {
  for (const [key, data] of queryClient.getQueriesData<CommentListData>({ queryKey: commentKeys.ofPost(postId) })) {
    if (!data) continue;
    const pages = mapPages(data.pages, orderOf(key));
    if (pages !== data.pages) queryClient.setQueryData<CommentListData>(key, { ...data, pages });
  }
}

function mapComments(pages: CommentPage[], map: (comments: Comment[]) => Comment[]): CommentPage[] {
  let changed = false;
  const next = pages.map((page) => {
    const comments = map(page.comments);
    if (comments === page.comments) return page;
    changed = true;
    return { ...page, comments };
  });
  return changed ? next : pages;
}

/**
 * Puts a new comment where it belongs in every loaded list: first when newest come first; last when
 * oldest come first — at the end of what is loaded, so the writer sees it even before the last page is.
 */
export function insertCachedComment(queryClient: QueryClient, comment: Comment): void {
  mapLists(queryClient, comment.postId, (pages, order) => insertInto(pages, order, comment));
}

function insertInto(pages: CommentPage[], order: CommentOrder, comment: Comment): CommentPage[] {
  if (pages.length === 0) return pages;
  const at = order === 'newest' ? 0 : pages.length - 1;
  return pages.map((page, index) =>
    index !== at
      ? page
      : { ...page, comments: order === 'newest' ? [comment, ...page.comments] : [...page.comments, comment] },
  );
}

/** Swaps the comment with id `commentId` for `next` everywhere it is cached. */
export function replaceCachedComment(queryClient: QueryClient, postId: string, commentId: string, next: Comment): void {
  mapLists(queryClient, postId, (pages) =>
    mapComments(pages, (comments) =>
      comments.some((comment) => comment._id === commentId)
        ? comments.map((comment) => (comment._id === commentId ? next : comment))
        : comments,
    ),
  );
}

/**
 * The server stored a comment shown while pending: its copy takes the pending one's place. A list
 * (re)loaded meanwhile has no pending copy; it gets the comment added, unless it already came with it.
 */
export function settlePendingComment(queryClient: QueryClient, pendingId: string, stored: Comment): void {
  mapLists(queryClient, stored.postId, (pages, order) => {
    const has = (id: string) => pages.some((page) => page.comments.some((comment) => comment._id === id));
    if (has(pendingId)) {
      return mapComments(pages, (comments) =>
        comments.some((comment) => comment._id === pendingId)
          ? comments.map((comment) => (comment._id === pendingId ? stored : comment))
          : comments,
      );
    }
    return has(stored._id) ? pages : insertInto(pages, order, stored);
  });
}

/** Drops a comment from every cached list. */
export function removeCachedComment(queryClient: QueryClient, postId: string, commentId: string): void {
  mapLists(queryClient, postId, (pages) =>
    mapComments(pages, (comments) =>
      comments.some((comment) => comment._id === commentId)
        ? comments.filter((comment) => comment._id !== commentId)
        : comments,
    ),
  );
}

/** The loaded comments in order, each once (a comment written here may also arrive on a later page). */
export function flattenComments(data: { pages: CommentPage[] } | undefined): Comment[] {
  const seen = new Set<string>();
  const result: Comment[] = [];
  for (const page of data?.pages ?? []) {
    for (const comment of page.comments) {
      if (seen.has(comment._id)) continue;
      seen.add(comment._id);
      result.push(comment);
    }
  }
  return result;
}
