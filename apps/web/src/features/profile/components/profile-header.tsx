import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { User } from '@share-arts/contract';
import { ExternalLink, Globe, Link2, MoveRight, Pencil } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatCount } from '../../../lib/format-count';
import { displayUrl, httpUrl } from '../../../lib/safe-url';
import { fullName } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import { Handle } from '../../../ui/handle';
import { useCurrentUser } from '../../../lib/session';
import { Button, ButtonLink } from '../../../ui/button';
import { FollowButton, useFollowShadow } from '../../people';
import { ProfileSafetyMenu, safetyOf } from '../../safety/profile';
import { FollowFromDialog } from './follow-from-dialog';
import { FollowersDialog } from './followers-dialog';
import styles from './profile-header.module.css';
import { remoteHome } from './remote-home';

interface ProfileHeaderProps {
  user: User;
  isOwn: boolean;
}

/**
 * Photo, name, @username, bio, link, counts, and Follow / Following (or Edit Profile on your own); a visitor who
 * is not signed in may follow from their own fediverse server instead. The follower count opens the list of
 * followers, here and on other servers. Someone on another server (following out, issue 39) shows their whole
 * handle and a link to their profile there; following them is Requested until their server accepts.
 */
export function ProfileHeader({ user, isOwn }: ProfileHeaderProps) {
  const { t } = useLingui();
  const { data: me } = useCurrentUser();
  const [followingFrom, setFollowingFrom] = useState(false);
  const [showingFollowers, setShowingFollowers] = useState(false);
  const name = fullName(user);
  // Someone on another server (following out): their profile there stands for their link.
  const home = remoteHome(user);
  const remote = home != null;
  const link = remote ? undefined : httpUrl(user.link);
  // A follow still on its way already counts, like the button beside it.
  const pending = useFollowShadow(user._id);
  const follows = pending ?? user.viewer.follows;
  const followerCount = Math.max(0, user.followerCount + (follows === user.viewer.follows ? 0 : follows ? 1 : -1));
  const homeHost = home?.host;
  const posts = user.postCount;
  const shownFollowing = formatCount(user.followingCount);

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
              <span className={styles.handle}>
                <Handle username={user.username} />
              </span>
              {!isOwn && user.viewer.followsYou && (
                <span className={styles.badge}>
                  <Trans>Follows you</Trans>
                </span>
              )}
            </p>
          </div>
          {isOwn ? (
            <ButtonLink to="/settings" variant="secondary" className={styles.action}>
              <Pencil aria-hidden="true" size="1.05em" />
              <Trans>Edit Profile</Trans>
            </ButtonLink>
          ) : (
            <div className={styles.otherActions}>
              {/* Nobody follows someone they block (Unblock is in the menu and below). */}
              {!safetyOf(user).blocked && (
                <FollowButton user={user} describedBy="profile-name" className={styles.action} />
              )}
              {/* Someone on another server is followed from their own server, not through this one. */}
              {!me && !remote && (
                <Button variant="secondary" className={styles.action} onClick={() => setFollowingFrom(true)}>
                  <Globe aria-hidden="true" size="1.05em" />
                  <Trans>Follow from your server</Trans>
                </Button>
              )}
              <ProfileSafetyMenu user={user} />
            </div>
          )}
        </div>
        {/* Moved away (issue 40): where the artist is now, before anything else they say. */}
        {user.movedTo && (
          <p className={styles.moved}>
            <MoveRight aria-hidden="true" size="1.1em" />
            {isOwn ? (
              <Trans>
                You moved to{' '}
                <Link to={`/${user.movedTo.username}`}>
                  <Handle username={user.movedTo.username} />
                </Link>
              </Trans>
            ) : (
              <Trans>
                {name} moved to{' '}
                <Link to={`/${user.movedTo.username}`}>
                  <Handle username={user.movedTo.username} />
                </Link>
              </Trans>
            )}
          </p>
        )}
        {user.bio && (
          <p className={styles.bio} dir="auto">
            {user.bio}
          </p>
        )}
        {home?.url && (
          <a className={styles.link} href={home.url} target="_blank" rel="noopener nofollow">
            <ExternalLink aria-hidden="true" size="1.1em" />
            <Trans>
              View on {homeHost}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </Trans>
          </a>
        )}
        {link && (
          <a className={styles.link} href={link} target="_blank" rel="noopener noreferrer">
            <Link2 aria-hidden="true" size="1.1em" />
            {displayUrl(link)}
            <span className="visually-hidden">
              {' '}
              <Trans>(opens in a new tab)</Trans>
            </span>
          </a>
        )}
        <ul className={styles.counts} aria-label={t`Counts`}>
          <li className={styles.count}>
            <Plural value={posts} one="# post" other="# posts" />
          </li>
          <li className={styles.count}>
            {followerCount > 0 ? (
              <button
                type="button"
                className={styles.countButton}
                aria-haspopup="dialog"
                onClick={() => setShowingFollowers(true)}
              >
                <Plural value={followerCount} one="# follower" other="# followers" />
              </button>
            ) : (
              <Plural value={followerCount} one="# follower" other="# followers" />
            )}
          </li>
          {/* Whom they follow is on their server, not here. */}
          {!remote && (
            <li className={styles.count}>
              <Trans>
                <strong>{shownFollowing}</strong> following
              </Trans>
            </li>
          )}
        </ul>
      </div>
      {followingFrom && <FollowFromDialog username={user.username} onClose={() => setFollowingFrom(false)} />}
      {showingFollowers && <FollowersDialog user={user} isOwn={isOwn} onClose={() => setShowingFollowers(false)} />}
    </section>
  );
}
