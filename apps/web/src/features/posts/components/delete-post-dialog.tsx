import { TOASTS } from '@share-arts/contract';
import { useRef } from 'react';
import { Button } from '../../../ui/button';
import { Modal } from '../../../ui/modal';
import { toast } from '../../../ui/toast';
import { useDeletePost } from '../api/delete-post';
import styles from './delete-post-dialog.module.css';

interface DeletePostDialogProps {
  postId: string;
  onClose: () => void;
  onDeleted?: () => void;
}

/** "Delete this post?" — a deliberate second step, with Cancel focused first. */
export function DeletePostDialog({ postId, onClose, onDeleted }: DeletePostDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
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
    <Modal
      title="Delete post?"
      role="alertdialog"
      size="sm"
      onClose={onClose}
      initialFocus={cancelRef}
      busy={remove.isPending}
    >
      <p className={styles.text}>The post and its picture will be removed for everyone. This cannot be undone.</p>
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
