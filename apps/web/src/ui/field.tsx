import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import styles from './field.module.css';

interface FieldChrome {
  label: string;
  hint?: string;
  /** A problem with the value (e.g. the server's message), shown under the control and announced with it. */
  error?: string;
}

function describedBy(hintId: string | undefined, errorId: string | undefined): string | undefined {
  return [errorId, hintId].filter(Boolean).join(' ') || undefined;
}

function FieldMessages({
  hint,
  hintId,
  error,
  errorId,
}: {
  hint?: string;
  hintId?: string;
  error?: string;
  errorId?: string;
}) {
  return (
    <>
      {error && (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
    </>
  );
}

interface ControlProps {
  id: string;
  className: string | undefined;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

/** The label, messages and wrapper around a control that `renderControl` draws with the given props. */
function Field({
  label,
  hint,
  error,
  id,
  className,
  renderControl,
}: FieldChrome & { id?: string; className?: string; renderControl: (props: ControlProps) => ReactNode }) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={inputId}>
        {label}
      </label>
      {renderControl({
        id: inputId,
        className: styles.control,
        'aria-describedby': describedBy(hintId, errorId),
        'aria-invalid': error ? true : undefined,
      })}
      <FieldMessages hint={hint} hintId={hintId} error={error} errorId={errorId} />
    </div>
  );
}

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & FieldChrome;

/** A labelled input; the label is the control's accessible name. */
export function TextField({ label, hint, error, id, className, ...rest }: TextFieldProps) {
  return (
    <Field {...{ label, hint, error, id, className }} renderControl={(control) => <input {...control} {...rest} />} />
  );
}

type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & FieldChrome;

/** A labelled textarea; the label is the control's accessible name. */
export function TextAreaField({ label, hint, error, id, className, ...rest }: TextAreaFieldProps) {
  return (
    <Field
      {...{ label, hint, error, id, className }}
      renderControl={(control) => <textarea {...control} {...rest} />}
    />
  );
}
