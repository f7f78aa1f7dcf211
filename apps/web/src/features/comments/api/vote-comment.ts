import type { Comment, VoteResponse } from '@share-arts/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { useSignInFirst } from '../../../lib/session';
import { queueToggle } from '../../../lib/toggle-queue';
import { toast } from '../../../ui/toast';
import { replaceCachedComment } from './comment-cache';
import { commentKeys, PREFER_MINIMAL } from './comment-keys';

export type Vote = 'up' | 'down';

/**
 * Votes asked for but not yet confirmed, by comment id (the comment's "shadow", as for likes): the
 * cached comment is drawn with it on top, so a list refetched mid-request cannot undo a click.
 */
const pending = new Map<string, Vote>();
const listeners = new Set<() => void>();

function setPending(commentId: string, vote: Vote | undefined) {
  if (vote) pending.set(commentId, vote);
  else pending.delete(commentId);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The comment as the viewer should see it: the cached copy with an unconfirmed vote applied. */
export function applyPendingVote(comment: Comment, vote: Vote | undefined): Comment {
  if (!vote || vote === comment.viewerVote) return comment;
  const { votes, viewerVote } = comment;
  return {
    ...comment,
    viewerVote: vote,
    votes: {
      ...votes,
      upvoteCount: Math.max(0, votes.upvoteCount + (vote === 'up' ? 1 : 0) - (viewerVote === 'up' ? 1 : 0)),
      downvoteCount: Math.max(0, votes.downvoteCount + (vote === 'down' ? 1 : 0) - (viewerVote === 'down' ? 1 : 0)),
    },
  };
}

/** `comment` with the viewer's pending vote applied; re-renders when it changes. */
export function useVotedComment(comment: Comment): Comment {
  const read = () => pending.get(comment._id);
  // The same on the server's render (src/entry-server.tsx): nothing pending there.
  const vote = useSyncExternalStore(subscribe, read, read);
  return applyPendingVote(comment, vote);
}

const sendVote = (comment: Comment, vote: Vote) =>
  apiClient.post<VoteResponse>(
    `/api/comments/${vote}vote/${encodeURIComponent(comment.postId)}/${encodeURIComponent(comment._id)}`,
    undefined,
    { headers: PREFER_MINIMAL },
  );

/**
 * Upvote / Downvote: shown at once, one request per comment in flight and only the last wish of rapid
 * clicks sent; a refusal rolls back and shows the server's message. A vote can be switched, not
 * withdrawn (the API has no call for that), so voting the way one already voted does nothing.
 */
export function useVoteComment(): (comment: Comment, vote: Vote) => void {
  const queryClient = useQueryClient();
  // A visitor reading a shared page signs in first, and comes back here.
  const signInFirst = useSignInFirst();
  return useCallback(
    (comment: Comment, vote: Vote) => {
      if (!signInFirst()) return;
      const shown = pending.get(comment._id) ?? comment.viewerVote;
      if (shown === vote) return;
      setPending(comment._id, vote);
      queueToggle<Vote | null, VoteResponse>({
        key: `comment-vote:${comment._id}`,
        confirmed: comment.viewerVote,
        desired: vote,
        send: (target) => sendVote(comment, target ?? vote),
        onSettled: (outcome) => {
          if (outcome.ok) {
            if (outcome.result) replaceCachedComment(queryClient, comment.postId, comment._id, outcome.result.comment);
            setPending(comment._id, undefined);
            return;
          }
          setPending(comment._id, undefined);
          toast.error(errorMessage(outcome.error));
          // The cache was probably stale (a vote from another tab): read the truth again.
          void queryClient.invalidateQueries({ queryKey: commentKeys.ofPost(comment.postId) });
        },
      });
    },
    [queryClient, signInFirst],
  );
}
