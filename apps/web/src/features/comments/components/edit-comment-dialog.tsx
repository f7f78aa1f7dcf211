import { Trans, useLingui } from '@lingui/react/macro';
import { LIMITS, type Comment } from '@share-arts/contract';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../ui/button';
import layout from '../../../ui/dialog-layout.module.css';
import { Modal } from '../../../ui/modal';
import { SuggestTextarea } from '../../../ui/suggest-textarea/suggest-textarea';
import { toast } from '../../../ui/toast';
import { useEditComment } from '../api/edit-comment';
import styles from './comment-dialog.module.css';
import { toastText } from '../../../lib/spec-toasts';

interface EditCommentDialogProps {
  comment: Comment;
  onClose: () => void;
  /** After the server saved the edit. */
  onEdited?: () => void;
}

/** "Edit Comment": the text prefilled, the spec's placeholder, saved with the Edit Comment button. */
export function EditCommentDialog({ comment, onClose, onEdited }: EditCommentDialogProps) {
  const { t } = useLingui();
  const [content, setContent] = useState(comment.content);
  const used = content.length;
  const limit = LIMITS.commentContentMax;
  const textRef = useRef<HTMLTextAreaElement>(null);
  const caretPlaced = useRef(false);
  const fieldId = useId();
  const counterId = useId();
  const edit = useEditComment(comment.postId, comment._id);
  const busy = edit.isPending;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!content.trim()) {
      toast.warning(toastText('commentEditEmpty'));
      textRef.current?.focus();
      return;
    }
    // Nothing changed: nothing to send.
    if (content.trim() === comment.content) {
      onClose();
      return;
    }
    edit.mutate(content, {
      onSuccess: () => {
        onClose();
        onEdited?.();
      },
      // The spec's words; the dialog stays open with the text, to try again.
      onError: () => toast.error(toastText('somethingWrong')),
    });
  };

  return (
    <Modal title={t`Edit Comment`} onClose={onClose} busy={busy}>
      <form className={layout.form} onSubmit={onSubmit} noValidate>
        <div className={layout.field}>
          <label htmlFor={fieldId} className="visually-hidden">
            <Trans>Comment</Trans>
          </label>
          <SuggestTextarea
            ref={textRef}
            id={fieldId}
            data-autofocus
            className={`${layout.textarea} ${styles.textarea}`}
            value={content}
            placeholder={t`Edit comment......`}
            maxLength={LIMITS.commentContentMax}
            rows={4}
            readOnly={busy}
            aria-describedby={counterId}
            onValueChange={setContent}
            onFocus={(event) => {
              // Opened to change the text: start at its end, not its beginning.
              if (caretPlaced.current) return;
              caretPlaced.current = true;
              const end = event.currentTarget.value.length;
              event.currentTarget.setSelectionRange(end, end);
            }}
          />
          <span id={counterId} className={styles.counter}>
            <Trans>
              <span className="visually-hidden">Characters used: </span>
              {used} / {limit}
            </Trans>
          </span>
        </div>
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" aria-disabled={busy || undefined} className={`${layout.busySubmit} ${styles.submit}`}>
            {busy ? t`Saving…` : t`Edit Comment`}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
