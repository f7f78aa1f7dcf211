import { Trans, useLingui } from '@lingui/react/macro';
import { LIMITS, type Draft, type Post } from '@share-arts/contract';
import { ImagePlus } from 'lucide-react';
import { useRef, useState, type ChangeEvent } from 'react';
import { PICTURE_ACCEPT } from '../../../../lib/use-picture-input';
import type { PostDraftPicture } from '../../api/save-post';
import { picturesChanged, postWait, type PostWait } from './picture-draft';
import { PictureList } from './picture-list';
import { useComposerPictures } from './use-composer-pictures';
import styles from './composer.module.css';
import folded from './more-options.module.css';

/** The prefix of the process pictures' element ids after the composer's own (their keys repeat the pictures'). */
const PROCESS_PREFIX = 'process-';

/**
 * A work's process pictures in the composer (issue 41): the sketch, the lines, the flats…, their own list of up to
 * LIMITS.processPicturesMax, uploaded and checked as the pictures are (the same draft, list and rows), starting
 * with the post's saved ones when editing. What the composer needs of them: whether Post must wait, whether
 * anything changed, and the pictures to save.
 */
export function useProcessPictures(post: Post | undefined, resumed?: Draft | undefined) {
  // `process` may be missing from an answer cached before the server sent it; a resumed draft's own come first.
  const [saved] = useState(
    () =>
      (resumed as Partial<Pick<Draft, 'processPictures'>> | undefined)?.processPictures ??
      (post as Partial<Pick<Post, 'process'>> | undefined)?.process ??
      [],
  );
  const pictures = useComposerPictures(saved, {
    max: LIMITS.processPicturesMax,
    holder: 'work',
  });
  const { items } = pictures;
  const found = postWait(items, 'process');
  // Its key names the row the message is about, under the process pictures' prefix (see ProcessPicturesField).
  const wait: PostWait | undefined = found && { ...found, key: found.key && `${PROCESS_PREFIX}${found.key}` };
  const draft: PostDraftPicture[] = items.flatMap((item) => (item.media ? [{ media: item.media, alt: item.alt }] : []));
  return { pictures, wait, changed: picturesChanged(items, saved), draft };
}

export type ProcessPictures = ReturnType<typeof useProcessPictures>;

interface ProcessPicturesFieldProps {
  process: ProcessPictures;
  disabled: boolean;
  /** The composer's prefix of the pictures' element ids. */
  idPrefix: string;
}

/**
 * "Process pictures", folded away under the pictures until opened (open while one of them needs looking at): the
 * list, reorderable with alt texts as the pictures are, and a button to add more.
 */
export function ProcessPicturesField({ process, disabled, idPrefix }: ProcessPicturesFieldProps) {
  const { draft, items, add, leftOut, announcement, announce } = process.pictures;
  const [open, setOpen] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const prefix = `${idPrefix}${PROCESS_PREFIX}`;
  const noteId = `${prefix}left-out`;
  const { t } = useLingui();
  const full = items.length >= LIMITS.processPicturesMax;
  const count = items.length;
  const max = LIMITS.processPicturesMax;
  const needsLook = process.wait !== undefined && process.wait.kind !== 'pending';

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const files = [...(input.files ?? [])];
    // Emptied at once, so choosing the same file again (after removing it) still fires a change.
    input.value = '';
    if (files.length > 0) add(files);
  };

  return (
    <details
      className={folded.details}
      open={open || needsLook || undefined}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className={folded.summary}>
        <Trans>Process pictures</Trans>
        {items.length > 0 && (
          <span className={folded.chosen}>
            {' '}
            <Trans>
              ({count} of {max})
            </Trans>
          </span>
        )}
      </summary>
      <section className={styles.pictures} aria-label={t`Process pictures`}>
        <p className={styles.leftOut}>
          <Trans>
            The sketch, the lines, the flats…: show how the work was made, in order. They are shown under the work and
            in the viewer.
          </Trans>
        </p>
        <PictureList
          draft={draft}
          items={items}
          idPrefix={prefix}
          disabled={disabled}
          announce={announce}
          onEmptied={() => inputRef.current?.focus()}
          noun="process"
          max={LIMITS.processPicturesMax}
        />
        <div className={styles.dropRow}>
          <label
            className={[styles.chooseButton, (disabled || full) && styles.chooseDisabled].filter(Boolean).join(' ')}
          >
            <input
              ref={inputRef}
              type="file"
              multiple
              accept={PICTURE_ACCEPT}
              className="visually-hidden"
              onChange={onChange}
              disabled={disabled || full}
              aria-describedby={leftOut ? noteId : undefined}
            />
            <ImagePlus aria-hidden="true" size="1.15em" />
            <Trans>Add process pictures</Trans>
          </label>
          <span className={styles.dropHint}>
            <Trans>
              {count} of {max}
            </Trans>
          </span>
        </div>
        {leftOut && (
          <p id={noteId} className={styles.leftOut}>
            {leftOut}
          </p>
        )}
        <p className="visually-hidden" role="status">
          {announcement}
        </p>
      </section>
    </details>
  );
}
