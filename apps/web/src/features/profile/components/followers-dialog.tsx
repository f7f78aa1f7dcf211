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
  const { data, error, isPending, isError, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = useFollowers(
    user._id,
  );
  const followers = data?.pages.flatMap((page) => page.followers) ?? [];

  let content;
  if (isPending) {
    content = (
      <p className={styles.status} role="status">
        Loading followers…
      </p>
    );
  } else if (isError && !data) {
    content = (
      <div className={styles.problem} role="alert">
        <p>The followers could not be loaded: {errorMessage(error)}</p>
        <Button variant="secondary" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (followers.length === 0) {
    content = <p className={styles.status}>No followers yet.</p>;
  } else {
    content = (
      <>
        <ul className={styles.list} aria-label={`Followers of @${user.username}`}>
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
            {isFetchingNextPage ? 'Loading more…' : 'Load more'}
          </Button>
        )}
        {isError && hasNextPage && <p className={styles.status}>The next followers could not be loaded.</p>}
      </>
    );
  }

  return (
    <Modal title="Followers" onClose={onClose}>
      {content}
    </Modal>
  );
}
