import { Trans } from '@lingui/react/macro';
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
        <Trans>Moderation</Trans>
      </h2>
      <div className={styles.sessionRow}>
        <p className={styles.sessionText}>
          <Trans>Review what people reported, and act on it.</Trans>
        </p>
        <ButtonLink to="/moderation" variant="secondary">
          <Trans>Open the moderation queue</Trans>
        </ButtonLink>
      </div>
    </section>
  );
}
