import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { useRemoteBlock, type RemotePersonSummary } from '../api/remote-block';

/**
 * "Block @bob@mastodon.example?": what blocking someone on another server does, said before it is done (the same
 * confirm as a block of someone here).
 */
export function RemoteBlockDialog({ person, onClose }: { person: RemotePersonSummary; onClose: () => void }) {
  const { t } = useLingui();
  const block = useRemoteBlock();
  const handle = person.remote.handle;
  return (
    <ConfirmDialog
      title={t`Block @${handle}?`}
      confirmLabel={t`Block`}
      busyLabel={t`Blocking…`}
      busy={block.isPending}
      onClose={onClose}
      onConfirm={() => block.mutate({ person, on: true }, { onSuccess: onClose })}
    >
      <Trans>
        They will stop following you, their likes and boosts of your works are removed, and they can&apos;t follow, like
        or boost you again; their comments on your works are hidden. Their server is told of the block. You can unblock
        them in Settings.
      </Trans>
    </ConfirmDialog>
  );
}

/** A row's "Block" for someone on another server (the artist's followers): opens the confirm first. */
export function RemoteBlockButton({ person }: { person: RemotePersonSummary }) {
  const { t } = useLingui();
  const [confirming, setConfirming] = useState(false);
  const handle = person.remote.handle;
  return (
    <>
      <Button variant="secondary" aria-label={t`Block @${handle}`} onClick={() => setConfirming(true)}>
        <Trans>Block</Trans>
      </Button>
      {confirming && <RemoteBlockDialog person={person} onClose={() => setConfirming(false)} />}
    </>
  );
}
