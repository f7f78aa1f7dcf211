import type { User } from '@share-arts/contract';
import { ButtonLink } from '../../../ui/button';
import { Avatar } from '../../../ui/avatar';
import styles from './profile-summary.module.css';

function fullName(user: User): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.username;
}

/** Photo, name, @username, bio, link and counts of the signed-in user. */
export function ProfileSummary({ user }: { user: User }) {
  const name = fullName(user);
  return (
    <section className={styles.card} aria-labelledby="profile-name">
      <Avatar src={user.userPhoto} name={name} size={6} />
      <div className={styles.details}>
        <h1 id="profile-name" className={styles.name}>
          {name}
        </h1>
        <p className={styles.username}>@{user.username}</p>
        {user.bio && <p className={styles.bio}>{user.bio}</p>}
        {user.link && (
          <a className={styles.link} href={user.link} target="_blank" rel="noopener noreferrer nofollow">
            {user.link}
          </a>
        )}
        <ul className={styles.counts}>
          <li className={styles.count}>
            <strong>{user.postCount}</strong> {user.postCount === 1 ? 'post' : 'posts'}
          </li>
          <li className={styles.count}>
            <strong>{user.followerCount}</strong> {user.followerCount === 1 ? 'follower' : 'followers'}
          </li>
          <li className={styles.count}>
            <strong>{user.followingCount}</strong> following
          </li>
        </ul>
        <ButtonLink to="/settings" variant="secondary" className={styles.edit}>
          Edit Profile
        </ButtonLink>
      </div>
    </section>
  );
}
