import { TOASTS } from '@share-arts/contract';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { toast } from '../../../ui/toast';
import { useDeletePost } from '../api/delete-post';

interface DeletePostDialogProps {
  postId: string;
  onClose: () => void;
  onDeleted?: () => void;
}

/** "Delete this post?" — a deliberate second step, with Cancel focused first. */
export default function DeletePostDialog({ postId, onClose, onDeleted }: DeletePostDialogProps) {
  const remove = useDeletePost();

  const confirm = () => {
    remove.mutate(postId, {
      onSuccess: () => {
        toast.success(TOASTS.deleted);
        onClose();
        onDeleted?.();
      },
      onError: () => toast.error(TOASTS.somethingWrong),
    });
  };

  return (
    <ConfirmDialog
      title="Delete post?"
      confirmLabel="Delete"
      busyLabel="Deleting…"
      onConfirm={confirm}
      onClose={onClose}
      busy={remove.isPending}
    >
      The post and its picture will be removed for everyone. This cannot be undone.
    </ConfirmDialog>
  );
}
