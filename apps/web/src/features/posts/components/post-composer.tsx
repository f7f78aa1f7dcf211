import { LIMITS, TOASTS, type Post } from '@share-arts/contract';
import { useId, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import layout from '../../../ui/dialog-layout.module.css';
import { Modal } from '../../../ui/modal';
import { toast } from '../../../ui/toast';
import { SavePostError, useSavePost, type DraftPicture, type SaveProgress } from '../api/save-post';
import { EmojiButton } from './emoji-button';
import { PictureField } from './picture-field';
import styles from './post-composer.module.css';

interface PostComposerProps {
  /** The post to edit; absent to write a new one. */
  post?: Post;
  onClose: () => void;
}

function initialPicture(post?: Post): DraftPicture {
  return post?.picture ? { kind: 'existing', picture: post.picture } : { kind: 'none' };
}

function busyLabel(progress: SaveProgress | null, editing: boolean): string {
  if (progress?.stage === 'uploading') return `Uploading ${Math.round(progress.fraction * 100)}%`;
  return editing ? 'Saving…' : 'Posting…';
}

/** The Add Post / Edit Post dialog: text with emoji, an optional picture with alt text. */
export default function PostComposer({ post, onClose }: PostComposerProps) {
  const editing = post !== undefined;
  const [content, setContent] = useState(post?.content ?? '');
  const [picture, setPicture] = useState<DraftPicture>(() => initialPicture(post));
  const [alt, setAlt] = useState(post?.picture?.alt ?? '');
  const [progress, setProgress] = useState<SaveProgress | null>(null);
  const [failure, setFailure] = useState<{ step: 'upload' | 'post'; message: string } | null>(null);
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  // A chosen file refused before upload, and one still being checked: either way the post cannot go yet.
  const [pictureRefused, setPictureRefused] = useState(false);
  const [pictureChecking, setPictureChecking] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const caret = useRef<{ start: number; end: number } | null>(null);
  const counterId = useId();
  const statusId = useId();
  const pictureErrorId = useId();
  const save = useSavePost(post, setProgress);
  const busy = save.isPending;
  // While the chosen picture is refused, being checked or failed to upload, Post would publish the post
  // without it: it waits until the person chooses another picture, removes it or lets the refused one go.
  const pictureBlocks = pictureRefused || pictureChecking || failure?.step === 'upload';

  const changed =
    content !== (post?.content ?? '') ||
    alt !== (post?.picture?.alt ?? '') ||
    picture.kind === 'new' ||
    (picture.kind === 'none' && post?.picture != null);
  // Escape, the backdrop, Close and Cancel all throw the draft away: ask first when there is something to lose.
  const requestClose = () => {
    if (changed) setConfirmingDiscard(true);
    else onClose();
  };

  const rememberCaret = () => {
    const element = textRef.current;
    if (element) caret.current = { start: element.selectionStart, end: element.selectionEnd };
  };

  const insertEmoji = (emoji: string) => {
    const { start, end } = caret.current ?? { start: content.length, end: content.length };
    const next = content.slice(0, start) + emoji + content.slice(end);
    if (next.length > LIMITS.postContentMax) return;
    setContent(next);
    caret.current = { start: start + emoji.length, end: start + emoji.length };
  };

  const focusText = () => {
    const element = textRef.current;
    if (!element) return;
    element.focus();
    const at = caret.current;
    if (at) element.setSelectionRange(at.start, at.end);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || pictureBlocks) return;
    if (!content.trim()) {
      toast.warning(TOASTS.postEmpty);
      textRef.current?.focus();
      return;
    }
    setFailure(null);
    save.mutate(
      { content, picture, alt },
      {
        onSuccess: () => {
          if (!editing) toast.success(TOASTS.posted);
          onClose();
        },
        onError: (error) => {
          setProgress(null);
          // The spec: "Unable to Post" when posting fails; a failed edit shows no toast. Either way the
          // dialog stays open with everything the person wrote, and says what went wrong.
          if (!editing) toast.error(TOASTS.postFailed);
          const step = error instanceof SavePostError ? error.step : 'post';
          const cause = error instanceof SavePostError ? error.cause : error;
          setFailure({ step, message: errorMessage(cause) });
        },
      },
    );
  };

  return (
    <Modal title={editing ? 'Edit Post' : 'Add Post'} onClose={requestClose} busy={busy}>
      <form className={layout.form} onSubmit={onSubmit} noValidate aria-describedby={failure ? statusId : undefined}>
        <div className={layout.field}>
          <label htmlFor={`${counterId}-text`} className={styles.label}>
            What are you thinking?
          </label>
          <textarea
            ref={textRef}
            id={`${counterId}-text`}
            data-autofocus
            className={layout.textarea}
            value={content}
            maxLength={LIMITS.postContentMax}
            rows={4}
            readOnly={busy}
            aria-describedby={counterId}
            onChange={(event) => {
              setContent(event.target.value);
              rememberCaret();
            }}
            onSelect={rememberCaret}
          />
          <div className={styles.toolbar}>
            <EmojiButton onPick={insertEmoji} onDone={focusText} disabled={busy} />
            <span id={counterId} className={styles.counter}>
              <span className="visually-hidden">Characters used: </span>
              {content.length} / {LIMITS.postContentMax}
            </span>
          </div>
        </div>

        <PictureField
          picture={picture}
          alt={alt}
          onPictureChange={(next) => {
            setPicture(next);
            // A different picture needs its own description.
            if (next.kind !== 'existing') setAlt('');
            setFailure(null);
            setPictureRefused(false);
          }}
          onRefuse={() => setPictureRefused(true)}
          onDismissRefusal={() => setPictureRefused(false)}
          onChecking={setPictureChecking}
          errorId={pictureErrorId}
          onAltChange={setAlt}
          disabled={busy}
          error={failure?.step === 'upload' ? failure.message : undefined}
        />

        {busy && progress?.stage === 'uploading' && (
          <progress className={styles.progress} value={progress.fraction} max={1} aria-label="Uploading picture" />
        )}
        {failure?.step === 'post' && (
          <p id={statusId} className={styles.error} role="alert">
            {editing ? 'Your changes were not saved' : 'Your post was not published'}: {failure.message} Your text is
            still here; try again.
          </p>
        )}

        <div className={`${styles.footer} ${layout.stretchWhenNarrow}`}>
          <Button variant="secondary" onClick={requestClose} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            aria-disabled={busy || pictureBlocks || undefined}
            aria-describedby={pictureRefused || failure?.step === 'upload' ? pictureErrorId : undefined}
            className={[layout.busySubmit, styles.submit, pictureBlocks && !busy && styles.blocked]
              .filter(Boolean)
              .join(' ')}
          >
            {busy ? busyLabel(progress, editing) : editing ? 'Edit' : 'Post'}
          </Button>
        </div>
      </form>
      {confirmingDiscard && (
        <ConfirmDialog
          title={editing ? 'Discard your changes?' : 'Discard this post?'}
          confirmLabel="Discard"
          busyLabel="Discard"
          cancelLabel="Keep editing"
          onConfirm={onClose}
          onClose={() => setConfirmingDiscard(false)}
        >
          {editing
            ? 'What you changed in this post will be lost.'
            : picture.kind === 'new'
              ? 'Your text and the picture you chose will be lost.'
              : 'What you wrote will be lost.'}
        </ConfirmDialog>
      )}
    </Modal>
  );
}
