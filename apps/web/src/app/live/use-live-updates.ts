import type { LiveServerFrame } from '@share-arts/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { invalidateNotifications, setUnreadCount, useUnreadCount } from '../../features/notifications';
import { invalidateInquiries } from '../../features/inquiries';
import { applyLiveCounts } from '../../features/posts';
import { invalidateImports } from '../../features/imports';
import { applyFollowAnswer } from '../../features/people';
import { forgetNewPosts, recordNewPost } from '../../lib/live';
import { expireSession } from '../../lib/session';
import { getToken } from '../../lib/token-storage';
import { useTitleCount } from '../../lib/use-title-count';
import { whenIdle } from '../../lib/when-idle';
import { announce, clearAnnouncements } from './announcer';

/**
 * The live stream while `userId` is signed in: unread count (bell and title), new notifications (the
 * list is refetched, the text announced), like and comment counts of the posts on screen, and the posts
 * published since (the feeds' "N new posts"). Closed on logout; a refused token ends the session. Opened
 * once the browser is idle after the first paint, and its code loaded then: it only brings changes to what
 * is on screen.
 */
export function useLiveUpdates(userId: string | undefined): void {
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!userId) return;
    let connections = 0;
    const onFrame = (frame: LiveServerFrame) => {
      switch (frame.type) {
        case 'ready':
          connections += 1;
          setUnreadCount(queryClient, frame.unreadCount);
          for (const counts of frame.counts) applyLiveCounts(queryClient, counts);
          // Back after a break: what was missed beyond the replayed notifications (reads elsewhere, groups).
          if (connections > 1) invalidateNotifications(queryClient);
          break;
        case 'notification':
          setUnreadCount(queryClient, frame.unreadCount);
          invalidateNotifications(queryClient);
          // An inquiry, a message or a state (issue 42): the inbox and an open thread read again.
          if (frame.inquiry) invalidateInquiries(queryClient);
          // Replays after a reconnection are old news: the bell counts them, the region stays quiet.
          if (!frame.replay) announce(frame.text);
          break;
        case 'unread':
          setUnreadCount(queryClient, frame.unreadCount);
          invalidateNotifications(queryClient);
          break;
        case 'counts':
          applyLiveCounts(queryClient, frame);
          break;
        case 'post':
          recordNewPost({ postId: frame.postId, authorId: frame.authorId, following: frame.following });
          break;
        case 'follow':
          // Their server answered a follow of someone on another server (issue 39): no longer "Requested".
          applyFollowAnswer(queryClient, frame);
          break;
        case 'import':
          // An import of the artist's moved on (issue 40): Settings reads it again.
          invalidateImports(queryClient);
          break;
        case 'error':
          if (import.meta.env.DEV) console.warn('Live stream:', frame.message);
          break;
      }
    };
    let stop: (() => void) | undefined;
    let ended = false;
    const cancel = whenIdle(() => {
      import('../../lib/live/live-connection').then(
        ({ startLive }) => {
          if (ended) return;
          stop = startLive({ getToken, onFrame, onUnauthorised: () => expireSession(queryClient) });
        },
        // The chunk could not load (offline, a new deploy): the page works without live updates.
        () => undefined,
      );
    });
    return () => {
      ended = true;
      cancel();
      stop?.();
      forgetNewPosts();
      clearAnnouncements();
    };
  }, [userId, queryClient]);
}

/**
 * "(3) Home | Share Arts" while there are unread notifications. A component of its own (it draws nothing):
 * the count changes after the first paint, and only this leaf re-renders then, not the whole layout.
 */
export function UnreadTitle(): null {
  useTitleCount(useUnreadCount());
  return null;
}
