import { useLingui } from '@lingui/react/macro';
import { useRef } from 'react';
import { DropZone } from './composer/drop-zone';
import { PictureList } from './composer/picture-list';
import type { ComposerPictures } from './composer/use-composer-pictures';
import styles from './composer/composer.module.css';

interface PictureFieldProps {
  pictures: ComposerPictures;
  /** Files are being dragged over the dialog. */
  over: boolean;
  disabled: boolean;
  /** Prefix of the ids of the pictures' elements (see PictureList). */
  idPrefix: string;
  /** A new post: focus starts on Add pictures. */
  autoFocus: boolean;
}

/**
 * "Pictures": the post's pictures in order with their alt texts, uploads and buttons, then the drop zone.
 * What changes (added, moved, removed) is said in a polite live region.
 */
export function PictureField({ pictures, over, disabled, idPrefix, autoFocus }: PictureFieldProps) {
  const { t } = useLingui();
  const { draft, items, add, leftOut, announcement, announce } = pictures;
  const inputRef = useRef<HTMLInputElement>(null);
  const noteId = `${idPrefix}left-out`;

  return (
    <section className={styles.pictures} aria-label={t`Pictures`}>
      <PictureList
        draft={draft}
        items={items}
        idPrefix={idPrefix}
        disabled={disabled}
        announce={announce}
        onEmptied={() => inputRef.current?.focus()}
      />
      <DropZone
        count={items.length}
        over={over}
        disabled={disabled}
        onFiles={add}
        inputRef={inputRef}
        noteId={leftOut ? noteId : undefined}
        autoFocus={autoFocus}
      />
      {leftOut && (
        <p id={noteId} className={styles.leftOut}>
          {leftOut}
        </p>
      )}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </section>
  );
}
