import { TOASTS, type Comment } from '@share-arts/contract';
import { useRef } from 'react';
import { Button } from '../../../ui/button';
import { Modal } from '../../../ui/modal';
import { toast } from '../../../ui/toast';
import { useDeleteComment } from '../api/delete-comment';
import styles from './comment-dialog.module.css';

interface DeleteCommentDialogProps {
  comment: Comment;
  onClose: () => void;
  /** After the server deleted it (the comment, and this dialog, are gone by then). */
  onDeleted?: () => void;
}

/** "Delete comment?" — a deliberate second step, with Cancel focused first. */
export function DeleteCommentDialog({ comment, onClose, onDeleted }: DeleteCommentDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
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
    <Modal
      title="Delete comment?"
      role="alertdialog"
      size="sm"
      onClose={onClose}
      initialFocus={cancelRef}
      busy={remove.isPending}
    >
      <p className={styles.text}>The comment will be removed for everyone. This cannot be undone.</p>
      <div className={styles.actions}>
        <Button ref={cancelRef} variant="secondary" onClick={onClose} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={confirm} disabled={remove.isPending}>
          {remove.isPending ? 'Deleting…' : 'Delete'}
        </Button>
      </div>
    </Modal>
  );
}
