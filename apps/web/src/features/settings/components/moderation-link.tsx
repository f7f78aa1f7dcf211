import type { User } from '@share-arts/contract';
import { ButtonLink } from '../../../ui/button';
import { canModerate } from '../../moderation';
import styles from '../pages/settings-page.module.css';

/** Moderators and admins: the way to the moderation queue (the phone's bottom bar has no room for it). */
export function ModerationLink({ user }: { user: User }) {
  if (!canModerate(user)) return null;
  return (
    <section className={styles.card} aria-labelledby="moderation-link-title">
      <h2 id="moderation-link-title" className={styles.cardTitle}>
        Moderation
      </h2>
      <div className={styles.sessionRow}>
        <p className={styles.sessionText}>Review what people reported, and act on it.</p>
        <ButtonLink to="/moderation" variant="secondary">
          Open the moderation queue
        </ButtonLink>
      </div>
    </section>
  );
}
