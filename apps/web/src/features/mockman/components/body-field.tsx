import { Trans } from '@lingui/react/macro';
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
const EMPTY_BODY = '{}';

export function BodyField({ body, error, textareaRef, onChange, onFormat }: BodyFieldProps) {
  return (
    <div className={styles.bodyField}>
      <div className={styles.bodyHead}>
        <label className={styles.label} htmlFor="mockman-body">
          <Trans>Body</Trans>
        </label>
        <Button variant="secondary" className={styles.small} onClick={onFormat}>
          <Trans>Format JSON</Trans>
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
        <Trans>
          JSON, sent with content-type application/json unless you add your own. GET and DELETE with {EMPTY_BODY} send
          no body. Ctrl+Enter sends.
        </Trans>
      </p>
    </div>
  );
}
