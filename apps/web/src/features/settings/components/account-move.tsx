import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { problemOf } from '../../account/reauth';
import { useConfirmedAction } from '../../account/security';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { TextField } from '../../../ui/field';
import { Handle } from '../../../ui/handle';
import { ACCOUNT_MAX_LENGTH } from './account-aliases';
import { useAccountMove, useChangeAccountMove } from '../api/use-account-move';
import styles from './account-aliases.module.css';

/** The contract's ACCOUNT_MOVE_COOLDOWN_DAYS, copied (a schema module read here would land in the shell's chunk). */
export const MOVE_COOLDOWN_DAYS = 30;

const dateOf = (iso: string) => new Date(iso).toLocaleDateString(i18n.locale || undefined, { dateStyle: 'long' });

/**
 * Settings → Account's "Moving to another server" (issue 40, moving away): the artist names this account on their
 * new server first, then names the new account here; their followers here and elsewhere then follow it, and the
 * profile says where they went. A move can be undone as a redirect (the followers stay moved).
 */
export function AccountMove({ username }: { username: string }) {
  const { t } = useLingui();
  const titleId = useId();
  const problemId = useId();
  const state = useAccountMove();
  const { confirmed, dialog } = useConfirmedAction();
  const change = useChangeAccountMove(confirmed);
  const [draft, setDraft] = useState('');
  const [asking, setAsking] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [announcement, setAnnouncement] = useState('');
  const host = globalThis.location?.host ?? '';
  const movedTo = state.data?.movedTo;
  const movedOn = state.data?.movedAt ? dateOf(state.data.movedAt) : '';
  const loadProblem = state.isError ? problemOf(state.error) : '';

  const run = (account: string | null) => {
    setProblem(undefined);
    setAnnouncement('');
    change.mutate(account, {
      onSuccess: (answer) => {
        setDraft('');
        const account = answer.movedTo?.username ?? '';
        const moved = answer.followersMoved ?? 0;
        setAnnouncement(
          answer.movedTo
            ? t`Moved to @${account}. ${moved} of your followers here now follow it (or asked to).`
            : t`The redirect is cancelled: your profile no longer says where you moved.`,
        );
      },
      onError: (error) => setProblem(problemOf(error)),
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const account = draft.trim();
    if (!account) setProblem(t`Type the handle of your new account, like @you@mastodon.social.`);
    else setAsking(account);
  };

  return (
    <section className={styles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        <Trans>Moving to another server</Trans>
      </h2>
      {state.isPending ? (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      ) : state.isError ? (
        <div role="alert">
          <p>
            <Trans>Where your account moved could not be loaded: {loadProblem}</Trans>
          </p>
          <Button variant="secondary" onClick={() => void state.refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      ) : movedTo ? (
        <>
          <p className={styles.hint}>
            {movedOn ? (
              <Trans>
                This account moved to{' '}
                <strong className={styles.ownHandle}>
                  <Handle username={movedTo.username} />
                </strong>{' '}
                on {movedOn}. Your profile says so, and your followers were sent there.
              </Trans>
            ) : (
              <Trans>
                This account moved to{' '}
                <strong className={styles.ownHandle}>
                  <Handle username={movedTo.username} />
                </strong>
                . Your profile says so, and your followers were sent there.
              </Trans>
            )}
          </p>
          <div>
            <Button variant="secondary" disabled={change.isPending} onClick={() => run(null)}>
              {change.isPending ? t`Cancelling…` : t`Cancel the redirect`}
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className={styles.hint}>
            <Trans>
              First, on your new server, name this account as your old one: give{' '}
              <strong className={styles.ownHandle}>
                <Handle username={`${username}@${host}`} />
              </strong>{' '}
              (on Mastodon: Preferences → Account → “Moving from a different account”). Then name your new account here:
              your followers here and on other servers will follow it, and your profile will say where you went.
            </Trans>
          </p>
          <form className={styles.addForm} onSubmit={onSubmit} noValidate>
            <TextField
              label={t`Your new account`}
              placeholder="@you@mastodon.social"
              hint={t`Its handle, or the address of its profile. You can move once in ${MOVE_COOLDOWN_DAYS} days.`}
              value={draft}
              maxLength={ACCOUNT_MAX_LENGTH}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? problemId : undefined}
              onChange={(event) => {
                setDraft(event.target.value);
                setProblem(undefined);
              }}
            />
            <Button type="submit" disabled={change.isPending}>
              <Trans>Move…</Trans>
            </Button>
          </form>
        </>
      )}
      {asking !== undefined && (
        <ConfirmDialog
          title={t`Move to ${asking}?`}
          confirmLabel={t`Move`}
          busyLabel={t`Moving…`}
          // Closed first: "Confirm it's you" may open next, alone.
          onConfirm={() => {
            setAsking(undefined);
            run(asking);
          }}
          onClose={() => setAsking(undefined)}
        >
          <Trans>
            Your followers here and on other servers will follow {asking} instead, and your profile will say you moved.
            You can move again in {MOVE_COOLDOWN_DAYS} days.
          </Trans>
        </ConfirmDialog>
      )}
      {dialog}
      <div role="alert" id={problemId} className={styles.error}>
        {problem}
      </div>
      <div role="status" aria-live="polite" className={styles.announcement}>
        {announcement}
      </div>
    </section>
  );
}
