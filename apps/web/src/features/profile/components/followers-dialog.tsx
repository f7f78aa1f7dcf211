import { Trans, useLingui } from '@lingui/react/macro';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { Modal } from '../../../ui/modal';
import { useFollowers } from '../api/get-followers';
import { PersonRow } from '../../people';
import { RemoteBlockButton } from '../../safety/profile';
import styles from './followers-dialog.module.css';

interface FollowersDialogProps {
  user: { _id: string; username: string };
  /** The artist's own followers: someone on another server has a Block beside them (issue 39). */
  isOwn?: boolean;
  onClose: () => void;
}

/**
 * The artist's followers, here and on other servers of the fediverse (issue 39), newest first, 20 at a time with
 * "Load more"; opened from the follower count on the profile. The artist sees a Block beside each follower on another
 * server (a follower here is blocked from their profile).
 */
export function FollowersDialog({ user, isOwn = false, onClose }: FollowersDialogProps) {
  const { t } = useLingui();
  const username = user.username;
  const { data, error, isPending, isError, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = useFollowers(
    user._id,
  );
  const followers = data?.pages.flatMap((page) => page.followers) ?? [];

  let content;
  if (isPending) {
    content = (
      <p className={styles.status} role="status">
        <Trans>Loading followers…</Trans>
      </p>
    );
  } else if (isError && !data) {
    const problem = errorMessage(error);
    content = (
      <div className={styles.problem} role="alert">
        <p>
          <Trans>The followers could not be loaded: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  } else if (followers.length === 0) {
    content = (
      <p className={styles.status}>
        <Trans>No followers yet.</Trans>
      </p>
    );
  } else {
    content = (
      <>
        <ul className={styles.list} aria-label={t`Followers of @${username}`}>
          {followers.map((person) => (
            <li key={person._id} className={styles.row}>
              <PersonRow user={person} onNavigate={onClose} />
              {isOwn && person.remote && <RemoteBlockButton person={{ ...person, remote: person.remote }} />}
            </li>
          ))}
        </ul>
        {hasNextPage && (
          <Button
            variant="secondary"
            className={styles.more}
            onClick={() => void fetchNextPage()}
            aria-disabled={isFetchingNextPage || undefined}
          >
            {isFetchingNextPage ? t`Loading more…` : t`Load more`}
          </Button>
        )}
        {isError && hasNextPage && (
          <p className={styles.status}>
            <Trans>The next followers could not be loaded.</Trans>
          </p>
        )}
      </>
    );
  }

  return (
    <Modal title={t`Followers`} onClose={onClose}>
      {content}
    </Modal>
  );
}
