import { Trans, useLingui } from '@lingui/react/macro';
import { Copy } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import layout from '../../../ui/dialog-layout.module.css';
import { TextField } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import { followFromUrl, rememberedAccount } from '../api/follow-from';
import { followFromError } from '../lib/follow-from-errors';
import styles from './follow-from-dialog.module.css';

interface FollowFromDialogProps {
  username: string;
  onClose: () => void;
}

/**
 * "Follow from your server" (issue 39): someone with an account on Mastodon, Pixelfed or another fediverse
 * server types it, and is sent to their server's own page for following the artist. The artist's handle is
 * shown to copy, for servers that name no such page.
 */
export function FollowFromDialog({ username, onClose }: FollowFromDialogProps) {
  const { t } = useLingui();
  const [account, setAccount] = useState(rememberedAccount);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  const handle = `@${username}@${window.location.host}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (account.trim() === '') {
      setError(followFromError('notAnAccount'));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      window.location.assign(await followFromUrl(username, account));
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <Modal title={t`Follow @${username} from your server`} onClose={onClose}>
      <form className={layout.form} onSubmit={(event) => void submit(event)} noValidate aria-busy={busy}>
        <p className={layout.text}>
          <Trans>
            Have an account on Mastodon, Pixelfed or another server of the fediverse? Type it, and you will be sent to
            your server to follow {username} there. Their new works then reach your home timeline.
          </Trans>
        </p>
        <TextField
          label={t`Your handle or server`}
          hint={t`Like @you@mastodon.social, or just mastodon.social`}
          name="account"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={account}
          onChange={(event) => setAccount(event.target.value)}
          error={error}
          data-autofocus
          required
        />
        <div className={styles.handle}>
          <span className={layout.text}>
            <Trans>Or search for</Trans>
          </span>
          <code className={styles.code}>{handle}</code>
          <Button
            variant="secondary"
            onClick={() => void navigator.clipboard?.writeText(handle).then(() => setCopied(true))}
          >
            <Copy aria-hidden="true" size="1em" />
            {copied ? t`Copied` : t`Copy`}
          </Button>
        </div>
        <div className={layout.actions}>
          <Button variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          {/* Not disabled while asking: the focus stays on it, and Escape still closes the dialog. */}
          <Button type="submit" aria-disabled={busy || undefined} className={layout.busySubmit}>
            {busy ? t`Asking your server…` : t`Go to my server`}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
