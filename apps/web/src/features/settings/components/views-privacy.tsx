import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import { Link } from 'react-router';
import styles from './works-visibility.module.css';

/**
 * What is counted when someone looks at a work or a profile (issue 42): the privacy text of insights, word for word
 * what modules/insights does (docs/insights.md says the same).
 */
export function ViewsPrivacy() {
  const id = useId();
  return (
    <section className={styles.card} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.title}>
        <Trans>Views and insights</Trans>
      </h2>
      <p className={styles.hint}>
        <Trans>
          When you open a work&apos;s page or its viewer, or a profile, its artist&apos;s{' '}
          <Link to="/insights">insights</Link> count one view, at most once a day (UTC) per work or profile. Nothing
          here can be turned on or off: this is what is counted, for everyone.
        </Trans>
      </p>
      <ul className={styles.hint}>
        <li>
          <Trans>
            Stored: per day, the number of views of each work and profile, and where they came from — the page of the
            app before it (Home, Explore, a tag, search, a profile, a series, another work, notifications), or, on the
            first page of a visit, the name of the site that linked to it (its host only, never the full address), or
            that it was a server of the fediverse.
          </Trans>
        </li>
        <li>
          <Trans>
            Never stored: who viewed. To count you once a day, the server uses your account when you are signed in, and
            otherwise a hash of your address and browser under a random key made each day, kept only in the
            server&apos;s memory (or its Redis) and gone at the end of the day; neither is written beside the counts. No
            cookie and no identifier beyond what signing in already uses.
          </Trans>
        </li>
        <li>
          <Trans>
            Artists see the totals of their own works and profile only; nobody sees who viewed. Bots and an
            artist&apos;s own views are not counted. Views are written every 10 seconds, so a server crash may lose the
            last few.
          </Trans>
        </li>
      </ul>
    </section>
  );
}
