import { Trans, useLingui } from '@lingui/react/macro';
import { MEDIA_LIMITS } from '@share-arts/contract';
import { Trash2, Undo2 } from 'lucide-react';
import { useId, useMemo } from 'react';
import { PICTURE_ACCEPT, PICTURE_MAX_MB, usePictureInput, useRevokeObjectUrl } from '../../../lib/use-picture-input';
import { isDefaultPhoto } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import { Button } from '../../../ui/button';
import type { PhotoChange } from '../api/use-update-profile';
import styles from './photo-field.module.css';

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
  const { t } = useLingui();
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const {
    inputRef,
    error: shownError,
    onChange: onFile,
    reset: resetInput,
  } = usePictureInput({
    error,
    onPick: (chosen) => onChange({ kind: 'new', file: chosen }),
  });

  const file = change.kind === 'new' ? change.file : undefined;
  // The chosen file is previewed through a blob: URL, freed when it is replaced or the form goes.
  const previewUrl = useMemo(() => (file ? URL.createObjectURL(file) : undefined), [file]);
  useRevokeObjectUrl(previewUrl);

  const reset = (next: PhotoChange) => resetInput(() => onChange(next));

  const shown = change.kind === 'new' ? previewUrl : change.kind === 'remove' ? undefined : current;
  const hasPhoto = change.kind === 'new' || (change.kind === 'keep' && !isDefaultPhoto(current));
  const formats = MEDIA_LIMITS.formats.join(', ');
  const hint =
    change.kind === 'new'
      ? t`Preview of your new photo. It is saved when you select Update Profile.`
      : change.kind === 'remove'
        ? t`Your photo will be removed when you select Update Profile.`
        : t`${formats} · up to ${PICTURE_MAX_MB} MB · cropped to a square`;

  return (
    <div className={styles.field}>
      <div className={styles.preview}>
        {shown ? (
          <img
            key={shown}
            src={shown}
            alt={change.kind === 'new' ? t`Preview of your new profile photo` : t`Your profile photo`}
            className={styles.previewImg}
          />
        ) : (
          <Avatar name={name} size={5} />
        )}
      </div>
      <div className={styles.controls}>
        <label htmlFor={inputId} className={styles.label}>
          <Trans>Profile photo</Trans>
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept={PICTURE_ACCEPT}
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
              <Trans>Remove photo</Trans>
            </Button>
          )}
          {change.kind !== 'keep' && (
            <Button variant="secondary" onClick={() => reset({ kind: 'keep' })} disabled={disabled}>
              <Undo2 aria-hidden="true" size="1.05em" />
              <Trans>Keep current photo</Trans>
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}
