import { useLingui } from '@lingui/react/macro';
import type { Post } from '@share-arts/contract';
import { BellOff, CircleAlert, MoreHorizontal, Pencil, Trash2, UserCheck, UserPlus } from 'lucide-react';
import { useCurrentUser } from '../../../lib/session';
import { Menu, type MenuItem } from '../../../ui/menu';
import { useToggleFollow } from '../../people';
import { usePinMenuItems } from './pin-menu-item';

/** The dialogs a post card's menu opens (the card draws them). */
export type PostMenuDialog = 'edit' | 'delete' | 'report' | 'mute';

interface PostMenuProps {
  /** The card's post, pending changes drawn on top (its author, whether the viewer follows them). */
  post: Post;
  /** The cached (server) copy, which a follow toggles from. */
  cached: Post;
  isAuthor: boolean;
  openAt: 'first' | 'last';
  onDialog: (dialog: PostMenuDialog) => void;
  className?: string;
}

/**
 * A post card's "Post options": Edit, Pin or Unpin, Delete for its author; Follow, Mute and Report for anyone else.
 * A chunk of its own, loaded when the menu is first opened (post-card.tsx, ui/lazy-menu.tsx).
 */
export default function PostMenu({ post, cached, isAuthor, openAt, onDialog, className }: PostMenuProps) {
  const { t } = useLingui();
  const { data: me } = useCurrentUser();
  const toggleFollow = useToggleFollow();
  const pinItems = usePinMenuItems(post, isAuthor);
  const { followsAuthor } = post.viewer;
  const username = post.username;

  const items: MenuItem[] = isAuthor
    ? [
        { label: t`Edit`, icon: <Pencil aria-hidden="true" size="1.1em" />, onSelect: () => onDialog('edit') },
        ...pinItems,
        {
          label: t`Delete`,
          icon: <Trash2 aria-hidden="true" size="1.1em" />,
          tone: 'danger',
          onSelect: () => onDialog('delete'),
        },
      ]
    : [
        {
          label: followsAuthor ? t`Following` : t`Follow`,
          icon: followsAuthor ? (
            <UserCheck aria-hidden="true" size="1.1em" />
          ) : (
            <UserPlus aria-hidden="true" size="1.1em" />
          ),
          onSelect: () => toggleFollow({ userId: cached.userId, followsAuthor: cached.viewer.followsAuthor }, true),
        },
        ...(me
          ? [
              {
                label: t`Mute @${username}`,
                icon: <BellOff aria-hidden="true" size="1.1em" />,
                onSelect: () => onDialog('mute'),
              },
              {
                label: t`Report`,
                icon: <CircleAlert aria-hidden="true" size="1.1em" />,
                onSelect: () => onDialog('report'),
              },
            ]
          : []),
      ];

  return (
    <Menu
      label={t`Post options`}
      trigger={<MoreHorizontal aria-hidden="true" size="1.35em" />}
      items={items}
      className={className}
      openAtStart={openAt}
    />
  );
}
