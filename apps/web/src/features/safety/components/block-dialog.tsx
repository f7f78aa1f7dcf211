import { Trans, useLingui } from '@lingui/react/macro';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { useRelation } from '../api/relations';

interface BlockDialogProps {
  username: string;
  onClose: () => void;
}

/** "Block @name?": says what blocking does before it is done. */
export function BlockDialog({ username, onClose }: BlockDialogProps) {
  const { t } = useLingui();
  const block = useRelation('block');
  return (
    <ConfirmDialog
      title={t`Block @${username}?`}
      confirmLabel={t`Block`}
      busyLabel={t`Blocking…`}
      busy={block.isPending}
      onClose={onClose}
      onConfirm={() => block.mutate({ username, on: true }, { onSuccess: onClose })}
    >
      <Trans>
        They won&apos;t see your works or be able to interact with you; they are not told. You can unblock them from
        their profile or in Settings.
      </Trans>
    </ConfirmDialog>
  );
}
