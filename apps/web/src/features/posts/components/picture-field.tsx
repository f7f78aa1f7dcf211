import { MEDIA_LIMITS } from '@share-arts/contract';
import { ImagePlus, X } from 'lucide-react';
import { useId } from 'react';
import { PICTURE_ACCEPT, PICTURE_MAX_MB, usePictureInput, useRevokeObjectUrl } from '../../../lib/use-picture-input';
import { TextAreaField } from '../../../ui/field';
import type { DraftPicture } from '../api/save-post';
import styles from './post-composer.module.css';

interface PictureFieldProps {
  picture: DraftPicture;
  alt: string;
  onPictureChange: (picture: DraftPicture) => void;
  onAltChange: (alt: string) => void;
  disabled?: boolean;
  /** A server's refusal of the upload, shown under the field. */
  error?: string;
}

/** "Picture": a file input with a preview, a way to remove the picture, and its alt text. */
export function PictureField({ picture, alt, onPictureChange, onAltChange, disabled, error }: PictureFieldProps) {
  const inputId = useId();
  const errorId = useId();
  const {
    inputRef,
    error: shownError,
    onChange: onFile,
    reset,
  } = usePictureInput({
    error,
    onPick: (file) => onPictureChange({ kind: 'new', file, previewUrl: URL.createObjectURL(file) }),
  });

  // A chosen file is previewed through a blob: URL; free it when it is replaced or the dialog closes.
  useRevokeObjectUrl(picture.kind === 'new' ? picture.previewUrl : undefined);

  const remove = () => reset(() => onPictureChange({ kind: 'none' }));

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
          accept={PICTURE_ACCEPT}
          className={styles.fileInput}
          onChange={onFile}
          disabled={disabled}
          aria-describedby={shownError ? errorId : undefined}
          aria-invalid={shownError ? true : undefined}
        />
      </div>
      <p className={styles.fileHint}>
        {MEDIA_LIMITS.formats.join(', ')} · up to {PICTURE_MAX_MB} MB
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
