import { MEDIA_LIMITS } from '@share-arts/contract';
import { Trash2, Undo2 } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { isDefaultPhoto } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import { Button } from '../../../ui/button';
import type { PhotoChange } from '../api/use-update-profile';
import styles from './photo-field.module.css';

const ACCEPT = MEDIA_LIMITS.mimeTypes.join(',');
const MAX_MB = MEDIA_LIMITS.maxBytes / (1024 * 1024);

function checkFile(file: File): string | undefined {
  const allowed: readonly string[] = MEDIA_LIMITS.mimeTypes;
  if (file.type && !allowed.includes(file.type)) {
    return `That file is not a picture we can use. Choose a ${MEDIA_LIMITS.formats.join(', ')} file.`;
  }
  if (file.size > MEDIA_LIMITS.maxBytes) {
    return `That picture is ${(file.size / (1024 * 1024)).toFixed(1)} MB; the limit is ${MAX_MB} MB.`;
  }
  return undefined;
}

interface PhotoFieldProps {
  /** The photo saved now. */
  current: string;
  name: string;
  change: PhotoChange;
  onChange: (change: PhotoChange) => void;
  disabled?: boolean;
  /** The server's refusal of the upload or of the photo, shown under the field. */
  error?: string;
}

/** "Profile photo": a file input with a preview of the photo as it will be saved, and Remove photo. */
export function PhotoField({ current, name, change, onChange, disabled, error }: PhotoFieldProps) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [localError, setLocalError] = useState<string>();
  const shownError = localError ?? error;

  const file = change.kind === 'new' ? change.file : undefined;
  // The chosen file is previewed through a blob: URL, freed when it is replaced or the form goes.
  const previewUrl = useMemo(() => (file ? URL.createObjectURL(file) : undefined), [file]);
  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    const problem = checkFile(chosen);
    setLocalError(problem);
    if (problem) {
      event.target.value = '';
      return;
    }
    onChange({ kind: 'new', file: chosen });
  };

  const reset = (next: PhotoChange) => {
    if (inputRef.current) inputRef.current.value = '';
    setLocalError(undefined);
    onChange(next);
    inputRef.current?.focus();
  };

  const shown = change.kind === 'new' ? previewUrl : change.kind === 'remove' ? undefined : current;
  const hasPhoto = change.kind === 'new' || (change.kind === 'keep' && !isDefaultPhoto(current));
  const hint =
    change.kind === 'new'
      ? 'Preview of your new photo. It is saved when you select Update Profile.'
      : change.kind === 'remove'
        ? 'Your photo will be removed when you select Update Profile.'
        : `${MEDIA_LIMITS.formats.join(', ')} · up to ${MAX_MB} MB · cropped to a square`;

  return (
    <div className={styles.field}>
      <div className={styles.preview}>
        {shown ? (
          <img
            key={shown}
            src={shown}
            alt={change.kind === 'new' ? 'Preview of your new profile photo' : `Your profile photo`}
            className={styles.previewImg}
          />
        ) : (
          <Avatar name={name} size={5} />
        )}
      </div>
      <div className={styles.controls}>
        <label htmlFor={inputId} className={styles.label}>
          Profile photo
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept={ACCEPT}
          className={styles.input}
          onChange={onFile}
          disabled={disabled}
          aria-describedby={[shownError ? errorId : '', hintId].filter(Boolean).join(' ')}
          aria-invalid={shownError ? true : undefined}
        />
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
        {shownError && (
          <p id={errorId} className={styles.error}>
            {shownError}
          </p>
        )}
        <div className={styles.buttons}>
          {hasPhoto && (
            <Button variant="secondary" onClick={() => reset({ kind: 'remove' })} disabled={disabled}>
              <Trash2 aria-hidden="true" size="1.05em" />
              Remove photo
            </Button>
          )}
          {change.kind !== 'keep' && (
            <Button variant="secondary" onClick={() => reset({ kind: 'keep' })} disabled={disabled}>
              <Undo2 aria-hidden="true" size="1.05em" />
              Keep current photo
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}
