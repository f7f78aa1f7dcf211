import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { Series } from '@share-arts/contract';
import { ArrowDownUp, Check, Pencil, Plus, Rss } from 'lucide-react';
import { Link } from 'react-router';
import { useCurrentUser } from '../../../lib/session';
import { fullName } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import { Button } from '../../../ui/button';
import { seriesPaths, useToggleFollowSeries, workCountText } from '../../series';
import styles from './series-header.module.css';

interface SeriesHeaderProps {
  series: Series;
  reordering: boolean;
  onReorder: (on: boolean) => void;
  onEdit: () => void;
}

/**
 * A series' title, owner, description and counts; Follow series for a signed-in reader who is not its owner;
 * Edit and Reorder for the owner; and its Atom feed.
 */
export function SeriesHeader({ series, reordering, onReorder, onEdit }: SeriesHeaderProps) {
  const { t } = useLingui();
  const title = series.title;
  const followers = series.followerCount;
  const { data: me } = useCurrentUser();
  const toggleFollow = useToggleFollowSeries();
  const { owner } = series;
  const following = series.viewer.follows;

  return (
    <header className={styles.header}>
      <p className={styles.kicker}>
        <Trans>Series</Trans>
      </p>
      <h1 className={styles.title}>{series.title}</h1>
      <p className={styles.owner}>
        <Link to={`/${encodeURIComponent(owner.username)}`} className={styles.ownerLink}>
          <Avatar src={owner.userPhoto} name={fullName(owner)} size={1.75} decorative />
          <span>
            {fullName(owner)} <span className={styles.username}>@{owner.username}</span>
          </span>
        </Link>
      </p>
      {series.description && <p className={styles.description}>{series.description}</p>}
      <ul className={styles.counts} aria-label={t`Counts`}>
        <li>{workCountText(series.workCount)}</li>
        <li>
          <Plural value={followers} one="# follower" other="# followers" />
        </li>
      </ul>
      <div className={styles.actions}>
        {me && !series.viewer.isOwner && (
          <Button
            variant={following ? 'secondary' : 'primary'}
            className={styles.action}
            aria-pressed={following}
            onClick={() => toggleFollow(series)}
          >
            {following ? <Check aria-hidden="true" size="1.1em" /> : <Plus aria-hidden="true" size="1.1em" />}
            {following ? t`Following series` : t`Follow series`}
          </Button>
        )}
        {series.viewer.isOwner && (
          <>
            <Button variant="secondary" className={styles.action} onClick={onEdit}>
              <Pencil aria-hidden="true" size="1.05em" />
              <Trans>Edit</Trans>
            </Button>
            <Button
              variant={reordering ? 'primary' : 'secondary'}
              className={styles.action}
              onClick={() => onReorder(!reordering)}
            >
              <ArrowDownUp aria-hidden="true" size="1.05em" />
              {reordering ? t`Done reordering` : t`Reorder`}
            </Button>
          </>
        )}
        <a className={styles.feed} href={seriesPaths.feed(owner.username, series.slug)}>
          <Rss aria-hidden="true" size="1.05em" />
          <Trans>
            Atom feed<span className="visually-hidden"> of {title}</span>
          </Trans>
        </a>
      </div>
    </header>
  );
}
