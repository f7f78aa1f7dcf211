import { Trans, useLingui } from '@lingui/react/macro';
import { type Comment } from '@share-arts/contract';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { toast } from '../../../ui/toast';
import { useDeleteComment } from '../api/delete-comment';
import { toastText } from '../../../lib/spec-toasts';

interface DeleteCommentDialogProps {
  comment: Comment;
  onClose: () => void;
  /** After the server deleted it (the comment, and this dialog, are gone by then). */
  onDeleted?: () => void;
}

/** "Delete comment?" — a deliberate second step, with Cancel focused first. */
export function DeleteCommentDialog({ comment, onClose, onDeleted }: DeleteCommentDialogProps) {
  const { t } = useLingui();
  const remove = useDeleteComment(comment.postId, comment._id);

  const confirm = () => {
    // The promise, not mutate's callbacks: those do not run once the deleted comment (and this
    // dialog with it) has left the page.
    remove.mutateAsync().then(
      () => {
        onClose();
        onDeleted?.();
      },
      () => toast.error(toastText('somethingWrong')),
    );
  };

  return (
    <ConfirmDialog
      title={t`Delete comment?`}
      confirmLabel={t`Delete`}
      busyLabel={t`Deleting…`}
      onConfirm={confirm}
      onClose={onClose}
      busy={remove.isPending}
      stretchActionsWhenNarrow
    >
      <Trans>The comment will be removed for everyone. This cannot be undone.</Trans>
    </ConfirmDialog>
  );
}
