import { Trans, useLingui } from '@lingui/react/macro';
import { LIMITS, type User } from '@share-arts/contract';
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Avatar } from '../../../ui/avatar';
import { Button } from '../../../ui/button';
import { SuggestTextarea } from '../../../ui/suggest-textarea/suggest-textarea';
import { toast } from '../../../ui/toast';
import { useAddComment } from '../api/add-comment';
import styles from './add-comment-form.module.css';
import { toastText } from '../../../lib/spec-toasts';

/** The counter shows once the text gets near the limit. */
const COUNTER_FROM = LIMITS.commentContentMax - 200;

interface AddCommentFormProps {
  postId: string;
  me: Pick<User, '_id' | 'username' | 'userPhoto' | 'firstName' | 'lastName'>;
  /** After the server stored the comment (to announce it). */
  onPosted: () => void;
}

/** "Add a comment": the comment shows at once; Ctrl/⌘+Enter posts too, Enter starts a new line. */
export function AddCommentForm({ postId, me, onPosted }: AddCommentFormProps) {
  const { t } = useLingui();
  const [content, setContent] = useState('');
  const textRef = useRef<HTMLTextAreaElement>(null);
  const fieldId = useId();
  const counterId = useId();
  const add = useAddComment(postId);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!content.trim()) {
      toast.warning(toastText('commentEmpty'));
      textRef.current?.focus();
      return;
    }
    const draft = content;
    setContent('');
    textRef.current?.focus();
    add
      .mutateAsync({ content: draft, author: { _id: me._id, username: me.username, userPhoto: me.userPhoto } })
      .then(onPosted, () => {
        // The spec's words for a refused comment; the text comes back so nothing is lost.
        toast.error(toastText('addCommentFailed'));
        setContent((current) => current || draft);
      });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      event.currentTarget.form?.requestSubmit();
    }
  };

  const name = [me.firstName, me.lastName].filter(Boolean).join(' ') || me.username;
  const used = content.length;
  const limit = LIMITS.commentContentMax;

  return (
    <form className={styles.form} aria-label={t`Add a comment`} onSubmit={onSubmit} noValidate>
      <Avatar src={me.userPhoto} name={name} size={2.25} decorative />
      <div className={styles.field}>
        <label htmlFor={fieldId} className="visually-hidden">
          <Trans>Add a comment</Trans>
        </label>
        <SuggestTextarea
          ref={textRef}
          id={fieldId}
          className={styles.textarea}
          value={content}
          placeholder={t`Add a comment…`}
          maxLength={LIMITS.commentContentMax}
          rows={1}
          aria-describedby={content.length >= COUNTER_FROM ? counterId : undefined}
          onValueChange={setContent}
          onKeyDown={onKeyDown}
        />
        {content.length >= COUNTER_FROM && (
          <span id={counterId} className={styles.counter}>
            <Trans>
              <span className="visually-hidden">Characters used: </span>
              {used} / {limit}
            </Trans>
          </span>
        )}
      </div>
      <Button type="submit" className={styles.submit}>
        <Trans>Post</Trans>
      </Button>
    </form>
  );
}
