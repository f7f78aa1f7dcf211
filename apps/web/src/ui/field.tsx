import { useId, type InputHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import styles from './field.module.css';

interface FieldChrome {
  label: string;
  hint?: string;
}

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & FieldChrome;

/** A labelled input; the label is the control's accessible name. */
export function TextField({ label, hint, id, className, ...rest }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={inputId}>
        {label}
      </label>
      <input id={inputId} className={styles.control} aria-describedby={hintId} {...rest} />
      {hint && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
    </div>
  );
}

type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & FieldChrome;

export function TextAreaField({ label, hint, id, className, ...rest }: TextAreaFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={inputId}>
        {label}
      </label>
      <textarea id={inputId} className={styles.control} aria-describedby={hintId} {...rest} />
      {hint && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
    </div>
  );
}
