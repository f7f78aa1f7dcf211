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
  /** A chosen file was refused before upload (its problem is shown under the field). */
  onRefuse: (problem: string) => void;
  /** The person let a refused choice go: the picture stays what it was. */
  onDismissRefusal: () => void;
  /** A chosen file is being checked (true) or no longer (false). */
  onChecking: (checking: boolean) => void;
  /** The id of the error message, for the Post button to point at. */
  errorId: string;
}

/** "Picture": a file input with a preview, a way to remove the picture, and its alt text. */
export function PictureField({
  picture,
  alt,
  onPictureChange,
  onAltChange,
  disabled,
  error,
  onRefuse,
  onDismissRefusal,
  onChecking,
  errorId,
}: PictureFieldProps) {
  const inputId = useId();
  const {
    inputRef,
    error: shownError,
    refused,
    onChange: onFile,
    reset,
    dismiss,
  } = usePictureInput({
    error,
    onPick: (file) => onPictureChange({ kind: 'new', file, previewUrl: URL.createObjectURL(file) }),
    onRefuse,
    onChecking,
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
        <div className={styles.pictureProblem}>
          <p id={errorId} className={styles.error} role="alert">
            {shownError}
          </p>
          {/* Post stays blocked until the person chooses another file or says to go on without this one. */}
          {refused && (
            <button
              type="button"
              className={styles.dismissProblem}
              onClick={() => dismiss(onDismissRefusal)}
              disabled={disabled}
            >
              {preview ? 'Keep the current picture' : 'Post without a picture'}
            </button>
          )}
        </div>
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
