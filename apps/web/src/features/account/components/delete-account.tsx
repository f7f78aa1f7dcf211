import { Trans, useLingui } from '@lingui/react/macro';
import { ACCOUNT_DELETION, ACCOUNT_DELETION_ERRORS } from '@share-arts/contract';
import { useRef, useState, type FormEvent } from 'react';
import { errorMessage, errorSource } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import layout from '../../../ui/dialog-layout.module.css';
import { useDeleteAccount } from '../api/use-delete-account';
import styles from './delete-account.module.css';

/** The confirmation: what goes, then the password (and the second factor's code when the server asks). */
function DeleteAccountDialog({ username, onClose }: { username: string; onClose: () => void }) {
  const { t } = useLingui();
  const deletion = useDeleteAccount();
  const heldDays = ACCOUNT_DELETION.heldUsernameDays;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [askCode, setAskCode] = useState(false);
  const [problem, setProblem] = useState<string>();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const busy = deletion.isPending || deletion.isSuccess;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!password) {
      setProblem(t`Type your password to delete your account.`);
      return;
    }
    deletion.mutate(
      { password, ...(askCode && code.trim() ? { secondFactor: code.trim() } : {}) },
      {
        onError: (error) => {
          const message = errorMessage(error);
          if (errorSource(error) === ACCOUNT_DELETION_ERRORS.secondFactorRequired) setAskCode(true);
          setProblem(message);
        },
      },
    );
  };

  return (
    <Modal
      title={t`Delete your account?`}
      role="alertdialog"
      size="sm"
      onClose={onClose}
      busy={busy}
      initialFocus={cancelRef}
    >
      <form className={layout.form} onSubmit={onSubmit} noValidate>
        <p className={layout.text}>
          {/* What goes with the account is said the same here and on the card. */}
          <Trans>
            This deletes <strong>@{username}</strong> for good, at once: your posts and every picture in them, your
            profile photo and uploads you have not posted, your comments, likes, votes, saved posts, follows and
            followers, followed tags, pins, blocks, mutes and notifications. It cannot be undone. Your username stays
            reserved for {heldDays} days, so nobody else can take it in the meantime.
          </Trans>
        </p>
        <TextField
          label={t`Your password`}
          type="password"
          autoComplete="current-password"
          value={password}
          readOnly={busy}
          error={askCode ? undefined : problem}
          onChange={(event) => {
            setPassword(event.target.value);
            setProblem(undefined);
          }}
        />
        {askCode && (
          <TextField
            label={t`Code from your authenticator app, or a recovery code`}
            autoComplete="one-time-code"
            inputMode="text"
            value={code}
            readOnly={busy}
            error={problem}
            onChange={(event) => {
              setCode(event.target.value);
              setProblem(undefined);
            }}
          />
        )}
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          <Button ref={cancelRef} variant="secondary" onClick={onClose} disabled={busy}>
            <Trans>Keep my account</Trans>
          </Button>
          <Button type="submit" variant="danger" aria-disabled={busy || undefined} className={layout.busySubmit}>
            {busy ? t`Deleting…` : t`Delete my account`}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** Settings' last card (issue 24): deleting the account, confirmed with the password in a dialog. */
export function DeleteAccount({ username }: { username: string }) {
  const [open, setOpen] = useState(false);
  return (
    <section className={styles.card} aria-labelledby="delete-account-title">
      <h2 id="delete-account-title" className={styles.title}>
        <Trans>Delete your account</Trans>
      </h2>
      <p className={styles.hint}>
        <Trans>
          Leave Share Arts for good. Deleting your account also deletes your posts and every picture in them, your
          profile photo and uploads you have not posted, your comments, likes, votes, saved posts, follows and
          followers, followed tags, pins, blocks, mutes and notifications. To keep a copy, download your data first.
        </Trans>
      </p>
      <div className={styles.row}>
        <Button variant="danger" onClick={() => setOpen(true)}>
          <Trans>Delete your account…</Trans>
        </Button>
      </div>
      {open && <DeleteAccountDialog username={username} onClose={() => setOpen(false)} />}
    </section>
  );
}
