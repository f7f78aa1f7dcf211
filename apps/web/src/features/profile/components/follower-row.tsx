import type { PersonSummary } from '@share-arts/contract';
import { ExternalLink } from 'lucide-react';
import { Link } from 'react-router';
import { httpUrl } from '../../../lib/safe-url';
import { fullName } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import styles from './follower-row.module.css';

interface FollowerRowProps {
  person: PersonSummary;
  /** Called when the link to a profile here is followed (the list closes). */
  onNavigate?: () => void;
}

/**
 * A follower: photo, name and @username, the name leading to their profile. Someone on another server of the
 * fediverse (issue 39) is named by their handle (`@bob@mastodon.example`), and their name leads out to their
 * profile on their own server, in a new tab; their photo is the default one (the site's Content-Security-Policy
 * loads pictures from this site only).
 */
export function FollowerRow({ person, onNavigate }: FollowerRowProps) {
  const name = fullName(person);
  if (person.remote) {
    const url = httpUrl(person.remote.url);
    return (
      <li className={styles.person}>
        <Avatar src={person.userPhoto} name={name} size={2.75} decorative />
        <span className={styles.names}>
          {url ? (
            <a className={styles.name} href={url} target="_blank" rel="noopener nofollow ugc">
              {name}
              <ExternalLink className={styles.external} aria-hidden="true" size="0.9em" />
              <span className="visually-hidden"> (their profile on their server, opens in a new tab)</span>
            </a>
          ) : (
            <span className={styles.name}>{name}</span>
          )}
          <span className={styles.username}>@{person.remote.handle}</span>
        </span>
      </li>
    );
  }
  const path = `/${encodeURIComponent(person.username)}`;
  return (
    <li className={styles.person}>
      <Link to={path} className={styles.avatarLink} tabIndex={-1} aria-hidden="true" onClick={onNavigate}>
        <Avatar src={person.userPhoto} name={name} size={2.75} decorative />
      </Link>
      <span className={styles.names}>
        <Link to={path} className={styles.name} onClick={onNavigate}>
          {name}
        </Link>
        <span className={styles.username}>@{person.username}</span>
      </span>
    </li>
  );
}
