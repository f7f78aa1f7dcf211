import { Trans, useLingui } from '@lingui/react/macro';
import { LIMITS, MEDIA_LIMITS } from '@share-arts/contract';
import { ImagePlus } from 'lucide-react';
import type { ChangeEvent, Ref } from 'react';
import { PICTURE_ACCEPT, PICTURE_MAX_MB } from '../../../../lib/use-picture-input';
import styles from './composer.module.css';

interface DropZoneProps {
  /** Pictures in the post so far. */
  count: number;
  /** Files are being dragged over the dialog. */
  over: boolean;
  disabled: boolean;
  onFiles: (files: File[]) => void;
  inputRef: Ref<HTMLInputElement>;
  /** The id of the note about files left out, for the input to point at. */
  noteId?: string;
  /** Focus starts on the button (a new post starts with its pictures). */
  autoFocus?: boolean;
}

const FORMATS = MEDIA_LIMITS.formats.join(', ');
const MEGAPIXELS = MEDIA_LIMITS.maxPixels / 1e6;
const MAX_PICTURES = LIMITS.postPicturesMax;

/**
 * Where pictures come in: dropped on it (or anywhere on the dialog), pasted, or chosen with its button: a
 * file input styled as a button, its label, so it stays the browser's own control for keyboards and
 * screen readers. Large while the post has no picture; a slim bar under them after.
 */
export function DropZone({ count, over, disabled, onFiles, inputRef, noteId, autoFocus }: DropZoneProps) {
  const { t } = useLingui();
  const full = count >= LIMITS.postPicturesMax;
  const limitsText = t`${FORMATS} · up to ${PICTURE_MAX_MB} MB and ${MEGAPIXELS} megapixels each · up to ${MAX_PICTURES} pictures`;
  const empty = count === 0;

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const files = [...(input.files ?? [])];
    // Emptied at once, so choosing the same file again (after removing it) still fires a change.
    input.value = '';
    if (files.length > 0) onFiles(files);
  };

  const zoneClass = [styles.dropZone, empty ? styles.dropZoneEmpty : styles.dropZoneSlim, over && styles.dropOver]
    .filter(Boolean)
    .join(' ');

  return (
    <div className={zoneClass} role="group" aria-label={t`Drop pictures here`}>
      {empty && <ImagePlus aria-hidden="true" className={styles.dropIcon} />}
      {empty && (
        <p className={styles.dropTitle}>
          {over ? (
            <Trans>Drop to add them</Trans>
          ) : (
            <>
              <span className={styles.pointerOnly}>
                <Trans>Drop your pictures here</Trans>
              </span>
              <span className={styles.touchOnly}>
                <Trans>Start with your pictures</Trans>
              </span>
            </>
          )}
        </p>
      )}
      <div className={styles.dropRow}>
        <label className={[styles.chooseButton, (disabled || full) && styles.chooseDisabled].filter(Boolean).join(' ')}>
          <input
            ref={inputRef}
            type="file"
            multiple
            accept={PICTURE_ACCEPT}
            className="visually-hidden"
            onChange={onChange}
            disabled={disabled || full}
            aria-describedby={noteId}
            data-autofocus={autoFocus || undefined}
          />
          <ImagePlus aria-hidden="true" size="1.15em" />
          <Trans>Add pictures</Trans>
        </label>
        <span className={styles.dropHint}>
          {full ? (
            <Trans>
              {count} of {MAX_PICTURES}: the most a post can hold
            </Trans>
          ) : empty ? (
            <Trans>or paste one</Trans>
          ) : (
            <>
              <Trans>
                {count} of {MAX_PICTURES}
              </Trans>
              <span className={styles.pointerOnly}> · {over ? t`drop to add them` : t`drop or paste more`}</span>
            </>
          )}
        </span>
      </div>
      {empty && <p className={styles.dropLimits}>{limitsText}</p>}
    </div>
  );
}
