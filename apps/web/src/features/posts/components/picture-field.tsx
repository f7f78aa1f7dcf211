import { MEDIA_LIMITS } from '@share-arts/contract';
import { ImagePlus, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { TextAreaField } from '../../../ui/field';
import type { DraftPicture } from '../api/save-post';
import styles from './post-composer.module.css';

const ACCEPT = MEDIA_LIMITS.mimeTypes.join(',');
const MAX_MB = MEDIA_LIMITS.maxBytes / (1024 * 1024);

interface PictureFieldProps {
  picture: DraftPicture;
  alt: string;
  onPictureChange: (picture: DraftPicture) => void;
  onAltChange: (alt: string) => void;
  disabled?: boolean;
  /** A server's refusal of the upload, shown under the field. */
  error?: string;
}

function checkFile(file: File): string | undefined {
  const allowed: readonly string[] = MEDIA_LIMITS.mimeTypes;
  // Some systems label AVIF with no type at all: let the server judge those by their content.
  if (file.type && !allowed.includes(file.type)) {
    return `That file is not a picture we can use. Choose a ${MEDIA_LIMITS.formats.join(', ')} file.`;
  }
  if (file.size > MEDIA_LIMITS.maxBytes) {
    return `That picture is ${(file.size / (1024 * 1024)).toFixed(1)} MB; the limit is ${MAX_MB} MB.`;
  }
  return undefined;
}

/** "Picture": a file input with a preview, a way to remove the picture, and its alt text. */
export function PictureField({ picture, alt, onPictureChange, onAltChange, disabled, error }: PictureFieldProps) {
  const inputId = useId();
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [localError, setLocalError] = useState<string>();
  const shownError = localError ?? error;

  // A chosen file is previewed through a blob: URL; free it when it is replaced or the dialog closes.
  const previewUrl = picture.kind === 'new' ? picture.previewUrl : undefined;
  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const problem = checkFile(file);
    setLocalError(problem);
    if (problem) {
      event.target.value = '';
      return;
    }
    onPictureChange({ kind: 'new', file, previewUrl: URL.createObjectURL(file) });
  };

  const remove = () => {
    if (inputRef.current) inputRef.current.value = '';
    setLocalError(undefined);
    onPictureChange({ kind: 'none' });
    inputRef.current?.focus();
  };

  const preview =
    picture.kind === 'new' ? picture.previewUrl : picture.kind === 'existing' ? picture.picture.url : undefined;

  return (
    <div className={styles.pictureField}>
      <div className={styles.fileRow}>
        <label htmlFor={inputId} className={styles.fileLabel}>
          <ImagePlus aria-hidden="true" size="1.2em" />
          Picture
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept={ACCEPT}
          className={styles.fileInput}
          onChange={onFile}
          disabled={disabled}
          aria-describedby={shownError ? errorId : undefined}
          aria-invalid={shownError ? true : undefined}
        />
      </div>
      <p className={styles.fileHint}>
        {MEDIA_LIMITS.formats.join(', ')} · up to {MAX_MB} MB
      </p>
      {shownError && (
        <p id={errorId} className={styles.error} role="alert">
          {shownError}
        </p>
      )}
      {preview && (
        <div className={styles.preview}>
          <img src={preview} alt={alt.trim() || 'Preview of the chosen picture'} className={styles.previewImg} />
          <button
            type="button"
            className={styles.removePicture}
            onClick={remove}
            disabled={disabled}
            aria-label="Remove picture"
          >
            <X aria-hidden="true" size="1.1em" />
          </button>
        </div>
      )}
      {preview && (
        <TextAreaField
          label="Alt text"
          hint="Describe the picture for people who cannot see it."
          value={alt}
          maxLength={MEDIA_LIMITS.altMax}
          rows={2}
          className={styles.alt}
          onChange={(event) => onAltChange(event.target.value)}
          disabled={disabled}
        />
      )}
    </div>
  );
}
