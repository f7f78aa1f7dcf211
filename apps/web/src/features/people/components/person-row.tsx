import type { UserCard } from '@share-arts/contract';
import { useId } from 'react';
import { Link } from 'react-router';
import { useCurrentUser } from '../../../lib/session';
import { fullName } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import { FollowButton } from './follow-button';
import followStyles from './follow-button.module.css';
import styles from './person-row.module.css';

interface PersonRowProps {
  user: UserCard;
  /** row: photo, names and button side by side; tile: stacked, for a horizontal strip. */
  layout?: 'row' | 'tile';
  showBio?: boolean;
}

/** A person in a list: photo, name and @username (both lead to the profile), and Follow / Following. */
export function PersonRow({ user, layout = 'row', showBio = false }: PersonRowProps) {
  const nameId = useId();
  const { data: me } = useCurrentUser();
  const name = fullName(user);
  const profilePath = `/${encodeURIComponent(user.username)}`;
  return (
    <div className={`${styles.person} ${styles[layout]}`}>
      <Link to={profilePath} className={styles.avatarLink} tabIndex={-1} aria-hidden="true">
        <Avatar src={user.userPhoto} name={name} size={layout === 'tile' ? 3.5 : 2.75} decorative />
      </Link>
      <div className={styles.names}>
        <Link to={profilePath} className={styles.name} id={nameId}>
          {name}
        </Link>
        <span className={styles.username}>@{user.username}</span>
        {showBio && user.bio && <p className={styles.bio}>{user.bio}</p>}
      </div>
      {me?._id !== user._id && <FollowButton user={user} size="sm" describedBy={nameId} className={styles.follow} />}
    </div>
  );
}

/**
 * A tile's boxes without content (photo, two lines, a small button), holding its place while the people
 * load, so the strip above the feed does not grow and push the posts down.
 */
export function PersonTilePlaceholder() {
  return (
    <div className={`${styles.person} ${styles.tile} ${styles.placeholder}`} aria-hidden="true">
      <span className={styles.avatarLink}>
        <Avatar name="" size={3.5} decorative />
      </span>
      <div className={styles.names}>
        <span className={styles.name}>&nbsp;</span>
        <span className={styles.username}>&nbsp;</span>
      </div>
      <span className={`${followStyles.button} ${followStyles.sm} ${styles.follow}`}>&nbsp;</span>
    </div>
  );
}
