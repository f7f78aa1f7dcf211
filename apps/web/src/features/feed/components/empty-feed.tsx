import { Trans } from '@lingui/react/macro';
import { Compass, Users } from 'lucide-react';
import { ButtonLink } from '../../../ui/button';
import styles from './empty-feed.module.css';

/** Home with nobody followed and nothing posted: point to Explore and to the suggestions beside the feed. */
export function EmptyFeed() {
  return (
    <section className={styles.empty} aria-labelledby="empty-feed-title">
      <div className={styles.art} aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <h2 id="empty-feed-title" className={styles.title}>
        <Trans>Your feed is waiting for its first picture</Trans>
      </h2>
      <p className={styles.text}>
        <Trans>
          Home shows your posts and the posts of the artists you follow. Find artists whose work you love on Explore and
          follow them from a post&apos;s menu or from Who to follow, or share something of your own with Add Post.
        </Trans>
      </p>
      <ButtonLink to="/explore">
        <Compass aria-hidden="true" size="1.2em" />
        <Trans>Explore posts</Trans>
      </ButtonLink>
      <p className={styles.hint}>
        <Users aria-hidden="true" size="1em" />
        <Trans>Who to follow suggests artists followed by the people you follow, and the most followed ones.</Trans>
      </p>
    </section>
  );
}
