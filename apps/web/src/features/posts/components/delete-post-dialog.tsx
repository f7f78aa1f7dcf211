import { Trans, useLingui } from '@lingui/react/macro';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { toast } from '../../../ui/toast';
import { useDeletePost } from '../api/delete-post';
import { toastText } from '../../../lib/spec-toasts';

interface DeletePostDialogProps {
  postId: string;
  onClose: () => void;
  onDeleted?: () => void;
}

/** "Delete this post?" — a deliberate second step, with Cancel focused first. */
export default function DeletePostDialog({ postId, onClose, onDeleted }: DeletePostDialogProps) {
  const { t } = useLingui();
  const remove = useDeletePost();

  const confirm = () => {
    remove.mutate(postId, {
      onSuccess: () => {
        toast.success(toastText('deleted'));
        onClose();
        onDeleted?.();
      },
      onError: () => toast.error(toastText('somethingWrong')),
    });
  };

  return (
    <ConfirmDialog
      title={t`Delete post?`}
      confirmLabel={t`Delete`}
      busyLabel={t`Deleting…`}
      onConfirm={confirm}
      onClose={onClose}
      busy={remove.isPending}
    >
      <Trans>The post and its picture will be removed for everyone. This cannot be undone.</Trans>
    </ConfirmDialog>
  );
}
