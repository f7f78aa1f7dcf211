import { Trans, useLingui } from '@lingui/react/macro';
import { MEDIA_LIMITS } from '@share-arts/contract';
import { ArrowDown, ArrowUp, Check, CircleAlert, Info, LoaderCircle, RotateCcw, X } from 'lucide-react';
import type { KeyboardEvent, PointerEvent } from 'react';
import type { DraftPicture, PictureNoun } from './picture-draft';
import styles from './composer.module.css';

interface PictureRowProps {
  item: DraftPicture;
  /** 1-based position, and how many there are. */
  position: number;
  total: number;
  /** Ids: the element saying what is wrong (Post points at it), and the reorder instructions. */
  problemId: string;
  instructionsId: string;
  disabled: boolean;
  dragging: boolean;
  /** Picked up with the keyboard: the arrow keys move it. */
  lifted: boolean;
  onHandleKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
  onHandlePointerDown: (event: PointerEvent<HTMLButtonElement>) => void;
  onHandleBlur: () => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  onRetry: () => void;
  onAltChange: (alt: string) => void;
  /** What the list holds, in its labels: "picture" (the default) or "process" (process pictures, issue 41). */
  noun?: PictureNoun;
}

/** Where the picture is, in words (and a bar while its bytes go out). */
function Status({
  item,
  problemId,
  onRetry,
  disabled,
}: Pick<PictureRowProps, 'item' | 'problemId' | 'onRetry' | 'disabled'>) {
  const { t, i18n } = useLingui();
  const name = item.name;
  switch (item.status) {
    case 'checking':
      return (
        <p className={styles.status}>
          <Trans>Checking…</Trans>
        </p>
      );
    case 'queued':
      return (
        <p className={styles.status}>
          <Trans>Waiting to upload</Trans>
        </p>
      );
    case 'uploading': {
      const percent = new Intl.NumberFormat(i18n.locale, { style: 'percent' }).format(item.progress);
      return (
        <div className={styles.status}>
          <progress className={styles.progress} value={item.progress} max={1} aria-label={t`Uploading ${name}`} />
          <span className={styles.percent}>
            <Trans>Uploading {percent}</Trans>
          </span>
        </div>
      );
    }
    case 'processing':
      return (
        <p className={styles.status}>
          <LoaderCircle aria-hidden="true" size="1em" className={styles.spinner} />
          <Trans>Processing…</Trans>
        </p>
      );
    case 'invalid':
    case 'failed':
      return (
        <div className={`${styles.status} ${styles.problem}`}>
          <CircleAlert aria-hidden="true" size="1em" className={styles.statusIcon} />
          <p id={problemId}>
            {item.status === 'failed' && `${t`Not uploaded:`} `}
            {item.problem}
          </p>
          {item.status === 'failed' && (
            <button type="button" className={styles.textButton} onClick={onRetry} disabled={disabled}>
              <RotateCcw aria-hidden="true" size="1em" />
              <Trans>Retry</Trans>
            </button>
          )}
        </div>
      );
    case 'ready':
      return item.file ? (
        <p className={`${styles.status} ${styles.ready}`}>
          <Check aria-hidden="true" size="1em" />
          <Trans>Uploaded</Trans>
        </p>
      ) : null;
  }
}

/**
 * One picture of the post being written: its thumbnail (the handle that drags it, or moves it with the
 * keyboard), where its upload is, its alt text with a gentle reminder when empty, and its buttons.
 */
export function PictureRow({
  item,
  position,
  total,
  problemId,
  instructionsId,
  disabled,
  dragging,
  lifted,
  onHandleKeyDown,
  onHandlePointerDown,
  onHandleBlur,
  onMove,
  onRemove,
  onRetry,
  onAltChange,
  noun = 'picture',
}: PictureRowProps) {
  const { t } = useLingui();
  const isProcess = noun === 'process';
  const name = item.name;
  const altId = `${problemId}-alt`;
  const reminderId = `${problemId}-reminder`;
  const unusable = item.status === 'invalid';
  const rowClass = [
    styles.row,
    dragging && styles.dragging,
    lifted && styles.lifted,
    (item.status === 'invalid' || item.status === 'failed') && styles.rowProblem,
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <li className={rowClass} data-key={item.key}>
      <button
        type="button"
        className={styles.handle}
        data-focus="handle"
        aria-label={
          isProcess ? t`Process picture ${position} of ${total}: ${name}` : t`Picture ${position} of ${total}: ${name}`
        }
        aria-describedby={instructionsId}
        aria-pressed={lifted}
        disabled={disabled}
        onKeyDown={onHandleKeyDown}
        onPointerDown={onHandlePointerDown}
        onBlur={onHandleBlur}
      >
        <img
          src={item.previewUrl}
          alt=""
          draggable={false}
          decoding="async"
          className={[styles.thumb, item.media?.pixelated && styles.pixelated].filter(Boolean).join(' ')}
        />
        <span className={styles.number} aria-hidden="true">
          {position}
        </span>
      </button>

      <div className={styles.details}>
        <p className={styles.name} title={item.name}>
          {item.name}
        </p>
        <Status item={item} problemId={problemId} onRetry={onRetry} disabled={disabled} />
        {!unusable && (
          <div className={styles.altField}>
            <label htmlFor={altId} className={styles.altLabel}>
              {isProcess ? (
                <Trans>
                  Alt text<span className="visually-hidden"> for process picture {position}</span>
                </Trans>
              ) : (
                <Trans>
                  Alt text<span className="visually-hidden"> for picture {position}</span>
                </Trans>
              )}
            </label>
            <textarea
              id={altId}
              className={styles.alt}
              value={item.alt}
              rows={2}
              maxLength={MEDIA_LIMITS.altMax}
              placeholder={t`What is in the picture?`}
              readOnly={disabled}
              aria-describedby={item.alt.trim() ? undefined : reminderId}
              onChange={(event) => onAltChange(event.target.value)}
            />
            {!item.alt.trim() && (
              <p id={reminderId} className={styles.reminder}>
                <Info aria-hidden="true" size="1em" className={styles.statusIcon} />
                <Trans>Describe it for people who cannot see it: a few words are enough.</Trans>
              </p>
            )}
          </div>
        )}
      </div>

      <div className={styles.actions}>
        <button
          type="button"
          className={styles.iconButton}
          data-focus="up"
          aria-label={isProcess ? t`Move process picture ${position} up` : t`Move picture ${position} up`}
          disabled={disabled || position === 1}
          onClick={() => onMove(-1)}
        >
          <ArrowUp aria-hidden="true" size="1.1em" />
        </button>
        <button
          type="button"
          className={styles.iconButton}
          data-focus="down"
          aria-label={isProcess ? t`Move process picture ${position} down` : t`Move picture ${position} down`}
          disabled={disabled || position === total}
          onClick={() => onMove(1)}
        >
          <ArrowDown aria-hidden="true" size="1.1em" />
        </button>
        <button
          type="button"
          className={styles.iconButton}
          aria-label={isProcess ? t`Remove process picture ${position}` : t`Remove picture ${position}`}
          disabled={disabled}
          onClick={onRemove}
        >
          <X aria-hidden="true" size="1.1em" />
        </button>
      </div>
    </li>
  );
}
