import { useState } from 'react';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { useRemoteBlock, type RemotePersonSummary } from '../api/remote-block';

/**
 * "Block @bob@mastodon.example?": what blocking someone on another server does, said before it is done (the same
 * confirm as a block of someone here).
 */
export function RemoteBlockDialog({ person, onClose }: { person: RemotePersonSummary; onClose: () => void }) {
  const block = useRemoteBlock();
  return (
    <ConfirmDialog
      title={`Block @${person.remote.handle}?`}
      confirmLabel="Block"
      busyLabel="Blocking…"
      busy={block.isPending}
      onClose={onClose}
      onConfirm={() => block.mutate({ person, on: true }, { onSuccess: onClose })}
    >
      They will stop following you, their likes and boosts of your works are removed, and they can&apos;t follow, like
      or boost you again; their comments on your works are hidden. Their server is told of the block. You can unblock
      them in Settings.
    </ConfirmDialog>
  );
}

/** A row's "Block" for someone on another server (the artist's followers): opens the confirm first. */
export function RemoteBlockButton({ person }: { person: RemotePersonSummary }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button variant="secondary" aria-label={`Block @${person.remote.handle}`} onClick={() => setConfirming(true)}>
        Block
      </Button>
      {confirming && <RemoteBlockDialog person={person} onClose={() => setConfirming(false)} />}
    </>
  );
}
