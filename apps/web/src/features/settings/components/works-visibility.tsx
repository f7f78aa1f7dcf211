import { Trans } from '@lingui/react/macro';
import type { User } from '@share-arts/contract';
import { useId, useState } from 'react';
import { useRightsSettings } from '../api/use-rights-settings';
import { useWorksVisibility } from '../api/use-works-visibility';
import styles from './works-visibility.module.css';

/**
 * Who sees your works: everyone (shared links open for visitors, with a preview of the art), or signed-in
 * people only (visitors and link previews see none of your posts).
 */
export function WorksVisibility({ user }: { user: User }) {
  const update = useWorksVisibility();
  const hintId = useId();
  // The box shows the choice at once, in the click's own render: the mutation's state arrives a task later, and
  // meanwhile React would put a controlled box back as it was.
  const [choice, setChoice] = useState<boolean | null>(null);
  const checked = choice ?? user.worksSignedInOnly;
  // "Let others add my works to collections" (issue 41): saved on its own, shown at once as the box above is.
  const collecting = useRightsSettings();
  const collectingHintId = useId();
  const [collectChoice, setCollectChoice] = useState<boolean | null>(null);
  const allowCollecting = collectChoice ?? user.settings?.allowCollecting ?? true;
  return (
    <section className={styles.card} aria-labelledby="works-visibility-title">
      <h2 id="works-visibility-title" className={styles.title}>
        <Trans>Who sees your works</Trans>
      </h2>
      <label className={styles.option}>
        <input
          type="checkbox"
          className={styles.checkbox}
          checked={checked}
          aria-describedby={hintId}
          disabled={update.isPending}
          onChange={(event) => {
            setChoice(event.target.checked);
            update.mutate(event.target.checked, { onSettled: () => setChoice(null) });
          }}
        />
        <span>
          <Trans>Show my works to signed-in people only</Trans>
        </span>
      </label>
      <p id={hintId} className={styles.hint}>
        <Trans>
          When this is on, people without an account, search engines and link previews see none of your posts; a shared
          link to one of them asks to sign in. The address of a picture file itself, once someone signed in copies it,
          still opens for whoever has it.
        </Trans>
      </p>
      <label className={styles.option}>
        <input
          type="checkbox"
          className={styles.checkbox}
          checked={allowCollecting}
          aria-describedby={collectingHintId}
          disabled={collecting.isPending}
          onChange={(event) => {
            setCollectChoice(event.target.checked);
            collecting.mutate({ allowCollecting: event.target.checked }, { onSettled: () => setCollectChoice(null) });
          }}
        />
        <span>
          <Trans>Let others add my works to collections</Trans>
        </span>
      </label>
      <p id={collectingHintId} className={styles.hint}>
        <Trans>
          People gather works they love into collections; you are told when one of yours goes into a public one, and you
          can take it out there. When this is off, nobody else can add your works (those already in collections stay
          until you take them out).
        </Trans>
      </p>
    </section>
  );
}
