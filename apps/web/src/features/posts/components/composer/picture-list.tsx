import { Trans, useLingui } from '@lingui/react/macro';
import { LIMITS } from '@share-arts/contract';
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { DraftPicture, PictureDraft, PictureNoun } from './picture-draft';
import { PictureRow } from './picture-row';
import { isRightToLeft, orderStep } from '../../../../ui/arrow-keys';
import { usePointerReorder } from '../../../../ui/use-pointer-reorder';
import styles from './composer.module.css';

interface PictureListProps {
  draft: PictureDraft;
  items: readonly DraftPicture[];
  /** Prefix of the ids of each picture's elements (its problem: `${idPrefix}${key}`). */
  idPrefix: string;
  disabled: boolean;
  /** Says something to screen readers (a move, a removal). */
  announce: (message: string) => void;
  /** Where focus goes when the last picture is removed. */
  onEmptied: () => void;
  /** What it holds, in its labels and announcements (the process pictures' list, issue 41): "picture" by default. */
  noun?: PictureNoun;
  /** The most it holds: LIMITS.postPicturesMax by default. */
  max?: number;
}

/** Which control of which row takes focus after the next render: a move re-inserts the row, which drops focus. */
interface PendingFocus {
  key: string;
  control: 'handle' | 'up' | 'down';
}

/**
 * The post's pictures in order, each reorderable three ways: drag its thumbnail; focus it and press Alt
 * with an arrow key (or Space to pick it up, the arrows to move it, Space to put it down, Escape to put it
 * back); or its Move up and Move down buttons. Every move is announced with the new position.
 */
export function PictureList({
  draft,
  items,
  idPrefix,
  disabled,
  announce,
  onEmptied,
  noun = 'picture',
  max = LIMITS.postPicturesMax,
}: PictureListProps) {
  const { t } = useLingui();
  const isProcess = noun === 'process';
  const listRef = useRef<HTMLOListElement>(null);
  const pendingFocus = useRef<PendingFocus | null>(null);
  /** The picture picked up with Space, and where it was. */
  const [lifted, setLifted] = useState<{ key: string; from: number } | null>(null);
  const instructionsId = `${idPrefix}instructions`;
  const total = items.length;

  const positionOf = (key: string) => items.findIndex((item) => item.key === key);
  const announceAt = (key: string, how: 'moved' | 'dropped' | 'back') => {
    // The new order is not rendered yet: read it from the draft.
    const position = draft.get().findIndex((item) => item.key === key) + 1;
    const count = draft.get().length;
    const words = isProcess
      ? {
          moved: () => t`Process picture moved to position ${position} of ${count}.`,
          dropped: () => t`Process picture dropped at position ${position} of ${count}.`,
          back: () => t`Process picture back at position ${position} of ${count}.`,
        }
      : {
          moved: () => t`Picture moved to position ${position} of ${count}.`,
          dropped: () => t`Picture dropped at position ${position} of ${count}.`,
          back: () => t`Picture back at position ${position} of ${count}.`,
        };
    announce(words[how]());
  };

  const { draggingKey, onPointerDown } = usePointerReorder({
    listRef,
    onMove: (key, index) => draft.move(key, index),
    onEnd: (key, cancelled) => announceAt(key, cancelled ? 'back' : 'dropped'),
  });

  useLayoutEffect(() => {
    const pending = pendingFocus.current;
    if (!pending) return;
    pendingFocus.current = null;
    const row = listRef.current?.querySelector<HTMLElement>(`:scope > li[data-key="${pending.key}"]`);
    if (!row) return;
    let target = row.querySelector<HTMLButtonElement>(`[data-focus="${pending.control}"]`);
    // Moved to an end, its button there is now disabled: the other one keeps focus in the row.
    if (target?.disabled) {
      target = row.querySelector<HTMLButtonElement>(`[data-focus="${pending.control === 'up' ? 'down' : 'up'}"]`);
    }
    if (target && !target.disabled && document.activeElement !== target) target.focus();
  });

  const move = (key: string, to: number, control: PendingFocus['control']) => {
    // Set before the move: the row may lose focus as soon as it is re-inserted.
    pendingFocus.current = { key, control };
    if (!draft.move(key, to)) {
      pendingFocus.current = null;
      return;
    }
    announceAt(key, 'moved');
  };

  const onHandleKeyDown = (event: KeyboardEvent<HTMLButtonElement>, key: string) => {
    const index = positionOf(key);
    // ↑ earlier, ↓ later; ← and → along the line (→ is earlier right to left, in Arabic).
    const step = orderStep(event.key, isRightToLeft(event.currentTarget));
    if (step !== 0 && (event.altKey || lifted?.key === key)) {
      event.preventDefault();
      move(key, index + step, 'handle');
      return;
    }
    if (lifted?.key === key && (event.key === 'Home' || event.key === 'End')) {
      event.preventDefault();
      move(key, event.key === 'Home' ? 0 : total - 1, 'handle');
      return;
    }
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      if (lifted?.key === key) {
        setLifted(null);
        announceAt(key, 'dropped');
      } else {
        setLifted({ key, from: index });
        const position = index + 1;
        announce(
          isProcess
            ? t`Process picture ${position} of ${total} picked up. Move it with the arrow keys, put it down with Space, or press Escape to put it back.`
            : t`Picture ${position} of ${total} picked up. Move it with the arrow keys, put it down with Space, or press Escape to put it back.`,
        );
      }
      return;
    }
    if (event.key === 'Escape' && lifted?.key === key) {
      // Back where it was; the dialog stays open (the modal leaves a handled Escape alone).
      event.preventDefault();
      setLifted(null);
      move(key, lifted.from, 'handle');
      announceAt(key, 'back');
    }
  };

  const remove = (key: string) => {
    const index = positionOf(key);
    const next = items[index + 1] ?? items[index - 1];
    draft.remove(key);
    const position = index + 1;
    const left = total - 1;
    announce(
      isProcess ? t`Process picture ${position} removed. ${left} left.` : t`Picture ${position} removed. ${left} left.`,
    );
    if (next) pendingFocus.current = { key: next.key, control: 'handle' };
    else onEmptied();
  };

  if (total === 0) return null;

  return (
    <>
      <p id={instructionsId} className="visually-hidden">
        <Trans>To move it, press Alt with an arrow key, or Space to pick it up and the arrow keys to move it.</Trans>
      </p>
      <ol
        ref={listRef}
        className={[styles.list, draggingKey && styles.listDragging].filter(Boolean).join(' ')}
        aria-label={
          isProcess ? t`Process pictures, in order (${total} of ${max})` : t`Pictures, in order (${total} of ${max})`
        }
      >
        {items.map((item, index) => (
          <PictureRow
            key={item.key}
            item={item}
            position={index + 1}
            total={total}
            problemId={`${idPrefix}${item.key}`}
            instructionsId={instructionsId}
            disabled={disabled}
            dragging={draggingKey === item.key}
            lifted={lifted?.key === item.key}
            onHandleKeyDown={(event) => onHandleKeyDown(event, item.key)}
            onHandlePointerDown={(event) => !disabled && onPointerDown(event, item.key)}
            onHandleBlur={() => {
              // Focus left a picked-up picture (not because it moved: that focus comes straight back).
              if (lifted?.key === item.key && pendingFocus.current?.key !== item.key) setLifted(null);
            }}
            onMove={(by) => move(item.key, index + by, by < 0 ? 'up' : 'down')}
            onRemove={() => remove(item.key)}
            onRetry={() => draft.retry(item.key)}
            onAltChange={(alt) => draft.setAlt(item.key, alt)}
            noun={noun}
          />
        ))}
      </ol>
    </>
  );
}
