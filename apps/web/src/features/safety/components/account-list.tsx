import { t as say } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { httpUrl } from '../../../lib/safe-url';
import { fullName } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import { Button } from '../../../ui/button';
import { useAccountList } from '../api/accounts';
import { useRemoteBlock } from '../api/remote-block';
import { useRelation } from '../dialogs';
import styles from './safety-settings.module.css';

/** The words of each list, in the current language (said at render). */
const copyOf = (kind: 'blocks' | 'mutes') =>
  kind === 'blocks'
    ? {
        title: say`Blocked accounts`,
        empty: say`You have not blocked anyone.`,
        hint: say`They don’t see your works and cannot interact with you; they are not told.`,
        undo: say`Unblock`,
        undoName: (name: string) => say`Unblock @${name}`,
        relation: 'block' as const,
      }
    : {
        title: say`Muted accounts`,
        empty: say`You have not muted anyone.`,
        hint: say`Their posts stay out of your lists; they are not told.`,
        undo: say`Unmute`,
        undoName: (name: string) => say`Unmute @${name}`,
        relation: 'mute' as const,
      };

/**
 * Settings' "Blocked accounts" or "Muted accounts": the people, page by page, each with Unblock / Unmute. Someone on
 * another server (issue 39) is named by their handle, linking out to their profile there.
 */
export function AccountList({ kind }: { kind: 'blocks' | 'mutes' }) {
  const { t } = useLingui();
  const copy = copyOf(kind);
  const list = useAccountList(kind);
  const undo = useRelation(copy.relation);
  const unblockRemote = useRemoteBlock();
  const titleId = `${kind}-title`;
  const users = list.data?.pages.flatMap((page) => page.users) ?? [];
  const loadProblem = list.isError ? errorMessage(list.error) : '';

  return (
    <section className={styles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        {copy.title}
      </h2>
      <p className={styles.text}>{copy.hint}</p>
      {list.isPending ? (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      ) : list.isError && users.length === 0 ? (
        <div role="alert">
          <p>
            <Trans>The list could not be loaded: {loadProblem}</Trans>
          </p>
          <Button variant="secondary" onClick={() => void list.refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      ) : users.length === 0 ? (
        <p className={styles.text}>{copy.empty}</p>
      ) : (
        <ul className={styles.list}>
          {users.map((user) => {
            const remote = 'remote' in user ? user.remote : undefined;
            if (remote) {
              const busy = unblockRemote.isPending && unblockRemote.variables.person._id === user._id;
              return (
                <li key={user._id} className={styles.row}>
                  <Avatar src={user.userPhoto} name={fullName(user)} size={2.25} decorative />
                  <span className={styles.rowName}>
                    <a href={httpUrl(remote.url) ?? undefined} target="_blank" rel="noopener nofollow ugc">
                      @{remote.handle}
                    </a>
                  </span>
                  <Button
                    variant="secondary"
                    disabled={busy}
                    aria-label={copy.undoName(remote.handle)}
                    onClick={() =>
                      unblockRemote.mutate(
                        { person: { ...user, remote }, on: false },
                        { onSuccess: () => void list.refetch() },
                      )
                    }
                  >
                    {copy.undo}
                  </Button>
                </li>
              );
            }
            const busy = undo.isPending && undo.variables.username === user.username;
            return (
              <li key={user._id} className={styles.row}>
                <Avatar src={user.userPhoto} name={fullName(user)} size={2.25} decorative />
                <span className={styles.rowName}>
                  <Link to={`/${encodeURIComponent(user.username)}`}>@{user.username}</Link>
                </span>
                <Button
                  variant="secondary"
                  disabled={busy}
                  aria-label={copy.undoName(user.username)}
                  onClick={() =>
                    undo.mutate({ username: user.username, on: false }, { onSuccess: () => void list.refetch() })
                  }
                >
                  {copy.undo}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {list.hasNextPage && (
        <Button variant="secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? t`Loading…` : t`Load more`}
        </Button>
      )}
    </section>
  );
}
