import type { KeyboardEvent, RefObject } from 'react';
import { Button } from '../../../ui/button';
import styles from './request-form.module.css';

interface BodyFieldProps {
  body: string;
  /** A problem with the body: invalid JSON, found when sending or formatting. */
  error: string | undefined;
  textareaRef: RefObject<HTMLTextAreaElement | null>;
  onChange: (text: string) => void;
  onFormat: () => void;
}

const onBodyKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    event.currentTarget.form?.requestSubmit();
  }
};

/** The JSON body, with Format JSON; Ctrl+Enter sends the form. */
export function BodyField({ body, error, textareaRef, onChange, onFormat }: BodyFieldProps) {
  return (
    <div className={styles.bodyField}>
      <div className={styles.bodyHead}>
        <label className={styles.label} htmlFor="mockman-body">
          Body
        </label>
        <Button variant="secondary" className={styles.small} onClick={onFormat}>
          Format JSON
        </Button>
      </div>
      <textarea
        ref={textareaRef}
        id="mockman-body"
        className={`${styles.control} ${styles.mono} ${styles.editor}`}
        value={body}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onBodyKeyDown}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        rows={7}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'mockman-body-error mockman-body-hint' : 'mockman-body-hint'}
      />
      {error && (
        <p id="mockman-body-error" className={styles.error}>
          {error}
        </p>
      )}
      <p id="mockman-body-hint" className={styles.hint}>
        JSON, sent with content-type application/json unless you add your own. GET and DELETE with {'{}'} send no body.
        Ctrl+Enter sends.
      </p>
    </div>
  );
}
