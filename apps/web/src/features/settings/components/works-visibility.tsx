import type { User } from '@share-arts/contract';
import { useId } from 'react';
import { useWorksVisibility } from '../api/use-works-visibility';
import styles from './works-visibility.module.css';

/**
 * Who sees your works: everyone (shared links open for visitors, with a preview of the art), or signed-in
 * people only (visitors and link previews see none of your posts).
 */
export function WorksVisibility({ user }: { user: User }) {
  const update = useWorksVisibility();
  const hintId = useId();
  const checked = update.isPending ? update.variables : user.worksSignedInOnly;
  return (
    <section className={styles.card} aria-labelledby="works-visibility-title">
      <h2 id="works-visibility-title" className={styles.title}>
        Who sees your works
      </h2>
      <label className={styles.option}>
        <input
          type="checkbox"
          className={styles.checkbox}
          checked={checked}
          aria-describedby={hintId}
          disabled={update.isPending}
          onChange={(event) => update.mutate(event.target.checked)}
        />
        <span>Show my works to signed-in people only</span>
      </label>
      <p id={hintId} className={styles.hint}>
        When this is on, people without an account, search engines and link previews see none of your posts; a shared
        link to one of them asks to sign in.
      </p>
    </section>
  );
}
