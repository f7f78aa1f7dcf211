import { UserX } from 'lucide-react';
import { ButtonLink } from '../../../ui/button';
import styles from './user-not-found.module.css';

/** An unknown username: say so plainly and offer the way home. */
export function UserNotFound({ username }: { username: string }) {
  return (
    <section className={styles.box} aria-labelledby="user-not-found-title">
      <UserX className={styles.icon} aria-hidden="true" size="2.5em" />
      <h1 id="user-not-found-title" className={styles.title}>
        User not found
      </h1>
      <p className={styles.text}>
        There is nobody called <strong>@{username}</strong> on Share Arts. Check the spelling, or find artists on
        Explore.
      </p>
      <ButtonLink to="/">Back to Home</ButtonLink>
    </section>
  );
}
