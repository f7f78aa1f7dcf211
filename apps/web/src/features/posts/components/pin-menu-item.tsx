import { useLingui } from '@lingui/react/macro';
import type { Post } from '@share-arts/contract';
import { Pin, PinOff } from 'lucide-react';
import { useCurrentUser } from '../../../lib/session';
import type { MenuItem } from '../../../ui/menu';
import { usePinChange, usePinnedPosts } from '../api/pin-post';

/**
 * "Pin to profile" or "Unpin from profile" in the menu of the author's own post card; none for anyone
 * else's. Whether it is pinned comes from the author's pinned works (one cached request for all cards).
 */
export function usePinMenuItems(post: Pick<Post, '_id'>, isAuthor: boolean): MenuItem[] {
  const { t } = useLingui();
  const { data: me } = useCurrentUser();
  const pinned = usePinnedPosts(isAuthor ? me?.username : undefined);
  const { change } = usePinChange();
  if (!isAuthor || !me) return [];
  const isPinned = pinned?.some((work) => work._id === post._id) ?? false;
  return [
    isPinned
      ? {
          label: t`Unpin from profile`,
          icon: <PinOff aria-hidden="true" size="1.1em" />,
          onSelect: () => change({ action: 'unpin', postId: post._id }),
        }
      : {
          label: t`Pin to profile`,
          icon: <Pin aria-hidden="true" size="1.1em" />,
          onSelect: () => change({ action: 'pin', postId: post._id }),
        },
  ];
}
