import { Trans } from '@lingui/react/macro';
import type { PersonSummary, UserCard } from '@share-arts/contract';
import { ExternalLink } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { profilePath } from '../../../lib/handle';
import { httpUrl } from '../../../lib/safe-url';
import { useCurrentUser } from '../../../lib/session';
import { fullName } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import { Handle } from '../../../ui/handle';
import { OpenBadge } from '../../../ui/open-badge';
import { FollowButton } from './follow-button';
import followStyles from './follow-button.module.css';
import styles from './person-row.module.css';

interface PersonRowProps {
  /** A card (with the viewer's follow state: a Follow button) or a summary (a follower, here or elsewhere). */
  user: UserCard | PersonSummary;
  /** row: photo, names and button side by side; tile: stacked, for a horizontal strip. */
  layout?: 'row' | 'tile';
  showBio?: boolean;
  /** Called when a link to a profile here is followed (a dialog listing people closes). */
  onNavigate?: () => void;
}

/**
 * A person in a list: photo, name and @username (both lead to the profile), and Follow / Following when the
 * viewer's follow state is known. Someone on another server of the fediverse (issue 39) is named by their handle
 * (`@bob@mastodon.example`), and their name leads out to their profile on their own server, in a new tab; their
 * photo is the default one (the site's Content-Security-Policy loads pictures from this site only).
 */
export function PersonRow({ user, layout = 'row', showBio = false, onNavigate }: PersonRowProps) {
  const nameId = useId();
  const { data: me } = useCurrentUser();
  const name = fullName(user);
  const size = layout === 'tile' ? 3.5 : 2.75;
  // A follower on another server, who has no profile here (a card with `remote` is someone whose works come here:
  // their profile here is theirs, below).
  if ('remote' in user && user.remote && !('viewer' in user)) {
    const url = httpUrl(user.remote.url);
    return (
      <div className={`${styles.person} ${styles[layout]}`}>
        <Avatar src={user.userPhoto} name={name} size={size} decorative />
        <div className={styles.names}>
          {url ? (
            <a className={styles.name} href={url} target="_blank" rel="noopener nofollow ugc" dir="auto">
              {name}
              <ExternalLink className={styles.external} aria-hidden="true" size="0.9em" />
              <span className="visually-hidden">
                {' '}
                <Trans>(their profile on their server, opens in a new tab)</Trans>
              </span>
            </a>
          ) : (
            <span className={styles.name} dir="auto">
              {name}
            </span>
          )}
          <span className={styles.username}>@{user.remote.handle}</span>
        </div>
      </div>
    );
  }
  const path = profilePath(user.username);
  const card = 'viewer' in user ? user : undefined;
  return (
    <div className={`${styles.person} ${styles[layout]}`}>
      <Link to={path} className={styles.avatarLink} tabIndex={-1} aria-hidden="true" onClick={onNavigate}>
        <Avatar src={user.userPhoto} name={name} size={size} decorative />
      </Link>
      <div className={styles.names}>
        {/* A name in its own direction: cut at its own end ("Omar Had…" on a right-to-left page too). */}
        <Link to={path} className={styles.name} id={nameId} onClick={onNavigate} dir="auto">
          {name}
        </Link>
        {card?.openForCommissions && <OpenBadge className={styles.badge} />}
        <span className={styles.username}>
          <Handle username={user.username} />
        </span>
        {showBio && card?.bio && <p className={styles.bio}>{card.bio}</p>}
      </div>
      {card && me?._id !== card._id && (
        <FollowButton user={card} size="sm" describedBy={nameId} className={styles.follow} />
      )}
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
