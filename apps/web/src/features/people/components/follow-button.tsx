import { Trans, useLingui } from '@lingui/react/macro';
import { Clock, UserCheck, UserPlus } from 'lucide-react';
import { useFollowShadow } from '../api/follow-shadow';
import { useToggleFollow } from '../api/toggle-follow';
import styles from './follow-button.module.css';

interface FollowButtonProps {
  /**
   * The cached (server) copy of the person; a pending follow is drawn on top of it. `requested`: someone on
   * another server (`remote`) whose server has not accepted the follow yet.
   */
  user: { _id: string; viewer: { follows: boolean; requested?: boolean }; remote?: unknown };
  size?: 'md' | 'sm';
  /** Id of the element naming the person, so each of several buttons is told apart. */
  describedBy?: string;
  className?: string;
}

/**
 * Follow / Following (aria-pressed), sharing the one queued follow toggle: every card menu, profile and
 * list showing the person changes at once. Hovering "Following" shows "Unfollow", which is what a
 * click does; the accessible name stays the state ("Following", pressed). Following someone on another server
 * is "Requested" until their server accepts (as Mastodon's locked accounts are); a click cancels it.
 */
export function FollowButton({ user, size = 'md', describedBy, className }: FollowButtonProps) {
  const { t } = useLingui();
  const pending = useFollowShadow(user._id);
  const toggleFollow = useToggleFollow();
  const follows = pending ?? user.viewer.follows;
  // While a follow of someone on another server is on its way, it will be a request: their server answers later.
  const settled = pending === undefined || pending === user.viewer.follows;
  const requested = follows && (settled ? user.viewer.requested === true : user.remote != null);
  const label = requested ? t`Requested` : follows ? t`Following` : t`Follow`;
  return (
    <button
      type="button"
      className={[styles.button, styles[size], follows ? styles.following : styles.follow, className]
        .filter(Boolean)
        .join(' ')}
      aria-pressed={follows}
      aria-label={label}
      aria-describedby={describedBy}
      onClick={() => toggleFollow({ userId: user._id, followsAuthor: user.viewer.follows })}
    >
      {requested ? (
        <>
          <span className={styles.rest} aria-hidden="true">
            <Clock size="1.1em" />
            <Trans>Requested</Trans>
          </span>
          <span className={styles.hover} aria-hidden="true">
            <Trans>Cancel request</Trans>
          </span>
        </>
      ) : follows ? (
        <>
          <span className={styles.rest} aria-hidden="true">
            <UserCheck size="1.1em" />
            <Trans>Following</Trans>
          </span>
          <span className={styles.hover} aria-hidden="true">
            <Trans>Unfollow</Trans>
          </span>
        </>
      ) : (
        <span className={styles.rest} aria-hidden="true">
          <UserPlus size="1.1em" />
          <Trans>Follow</Trans>
        </span>
      )}
    </button>
  );
}
