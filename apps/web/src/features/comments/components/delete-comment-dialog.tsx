import { TOASTS, type Comment } from '@share-arts/contract';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { toast } from '../../../ui/toast';
import { useDeleteComment } from '../api/delete-comment';

interface DeleteCommentDialogProps {
  comment: Comment;
  onClose: () => void;
  /** After the server deleted it (the comment, and this dialog, are gone by then). */
  onDeleted?: () => void;
}

/** "Delete comment?" — a deliberate second step, with Cancel focused first. */
export function DeleteCommentDialog({ comment, onClose, onDeleted }: DeleteCommentDialogProps) {
  const remove = useDeleteComment(comment.postId, comment._id);

  const confirm = () => {
    // The promise, not mutate's callbacks: those do not run once the deleted comment (and this
    // dialog with it) has left the page.
    remove.mutateAsync().then(
      () => {
        onClose();
        onDeleted?.();
      },
      () => toast.error(TOASTS.somethingWrong),
    );
  };

  return (
    <ConfirmDialog
      title="Delete comment?"
      confirmLabel="Delete"
      busyLabel="Deleting…"
      onConfirm={confirm}
      onClose={onClose}
      busy={remove.isPending}
      stretchActionsWhenNarrow
    >
      The comment will be removed for everyone. This cannot be undone.
    </ConfirmDialog>
  );
}
