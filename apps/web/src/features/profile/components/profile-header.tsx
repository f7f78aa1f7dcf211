import type { User } from '@share-arts/contract';
import { Globe, Link2, Pencil } from 'lucide-react';
import { useState } from 'react';
import { formatCount } from '../../../lib/format-count';
import { displayUrl, httpUrl } from '../../../lib/safe-url';
import { fullName } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import { useCurrentUser } from '../../../lib/session';
import { Button, ButtonLink } from '../../../ui/button';
import { FollowButton, useFollowShadow } from '../../people';
import { ProfileSafetyMenu, safetyOf } from '../../safety/profile';
import { FollowFromDialog } from './follow-from-dialog';
import { FollowersDialog } from './followers-dialog';
import styles from './profile-header.module.css';

interface ProfileHeaderProps {
  user: User;
  isOwn: boolean;
}

/**
 * Photo, name, @username, bio, link, counts, and Follow / Following (or Edit Profile on your own); a visitor who
 * is not signed in may follow from their own fediverse server instead. The follower count opens the list of
 * followers, here and on other servers.
 */
export function ProfileHeader({ user, isOwn }: ProfileHeaderProps) {
  const { data: me } = useCurrentUser();
  const [followingFrom, setFollowingFrom] = useState(false);
  const [showingFollowers, setShowingFollowers] = useState(false);
  const name = fullName(user);
  const link = httpUrl(user.link);
  // A follow still on its way already counts, like the button beside it.
  const pending = useFollowShadow(user._id);
  const follows = pending ?? user.viewer.follows;
  const followerCount = Math.max(0, user.followerCount + (follows === user.viewer.follows ? 0 : follows ? 1 : -1));

  return (
    <section className={styles.card} aria-labelledby="profile-name">
      <Avatar src={user.userPhoto} name={name} size={6.5} decorative />
      <div className={styles.details}>
        <div className={styles.top}>
          <div className={styles.names}>
            <h1 id="profile-name" className={styles.name}>
              {name}
            </h1>
            <p className={styles.username}>
              @{user.username}
              {!isOwn && user.viewer.followsYou && <span className={styles.badge}>Follows you</span>}
            </p>
          </div>
          {isOwn ? (
            <ButtonLink to="/settings" variant="secondary" className={styles.action}>
              <Pencil aria-hidden="true" size="1.05em" />
              Edit Profile
            </ButtonLink>
          ) : (
            <div className={styles.otherActions}>
              {/* Nobody follows someone they block (Unblock is in the menu and below). */}
              {!safetyOf(user).blocked && (
                <FollowButton user={user} describedBy="profile-name" className={styles.action} />
              )}
              {!me && (
                <Button variant="secondary" className={styles.action} onClick={() => setFollowingFrom(true)}>
                  <Globe aria-hidden="true" size="1.05em" />
                  Follow from your server
                </Button>
              )}
              <ProfileSafetyMenu user={user} />
            </div>
          )}
        </div>
        {user.bio && <p className={styles.bio}>{user.bio}</p>}
        {link && (
          <a className={styles.link} href={link} target="_blank" rel="noopener noreferrer">
            <Link2 aria-hidden="true" size="1.1em" />
            {displayUrl(link)}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        )}
        <ul className={styles.counts} aria-label="Counts">
          <li className={styles.count}>
            <strong>{formatCount(user.postCount)}</strong> {user.postCount === 1 ? 'post' : 'posts'}
          </li>
          <li className={styles.count}>
            {followerCount > 0 ? (
              <button
                type="button"
                className={styles.countButton}
                aria-haspopup="dialog"
                onClick={() => setShowingFollowers(true)}
              >
                <strong>{formatCount(followerCount)}</strong> {followerCount === 1 ? 'follower' : 'followers'}
              </button>
            ) : (
              <>
                <strong>0</strong> followers
              </>
            )}
          </li>
          <li className={styles.count}>
            <strong>{formatCount(user.followingCount)}</strong> following
          </li>
        </ul>
      </div>
      {followingFrom && <FollowFromDialog username={user.username} onClose={() => setFollowingFrom(false)} />}
      {showingFollowers && <FollowersDialog user={user} isOwn={isOwn} onClose={() => setShowingFollowers(false)} />}
    </section>
  );
}
