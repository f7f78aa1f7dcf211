import { Trans } from '@lingui/react/macro';
import type { Picture } from '@share-arts/contract';
import { useId, type Ref } from 'react';
import { ResponsivePicture } from '../../../ui/responsive-picture';
import styles from './process-strip.module.css';

interface ProcessStripProps {
  /** The work's process pictures in the artist's order. */
  pictures: readonly Picture[];
  /** The alt text of the process picture at `index`. */
  altOf: (picture: Picture, index: number) => string;
  /** Opens the viewer on the process picture at `index`. */
  onOpen: (index: number) => void;
  /** Fetches the viewer's code (a pointer over a picture, focus on it). */
  onWarm: () => void;
  /** The list, for focus to come back to the picture the viewer last showed (its buttons carry data-index). */
  listRef: Ref<HTMLOListElement>;
}

/**
 * "Process" under the work on its page (issue 41): the sketch, the lines, the flats… in the artist's order, each a
 * thumbnail that opens the viewer there (where the process is a strip of its own to step through).
 */
export function ProcessStrip({ pictures, altOf, onOpen, onWarm, listRef }: ProcessStripProps) {
  const titleId = useId();
  if (pictures.length === 0) return null;
  return (
    <section className={styles.process} aria-labelledby={titleId}>
      <h3 id={titleId} className={styles.title}>
        <Trans>Process</Trans>
      </h3>
      <ol ref={listRef} className={styles.list}>
        {pictures.map((picture, index) => (
          <li key={picture._id} className={styles.item}>
            <button
              type="button"
              className={styles.open}
              data-index={index}
              aria-haspopup="dialog"
              onClick={() => onOpen(index)}
              onPointerEnter={onWarm}
              onFocus={onWarm}
            >
              <ResponsivePicture picture={picture} alt={altOf(picture, index)} sizes="160px" loading="lazy" />
              <span className={styles.step} aria-hidden="true">
                {index + 1}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
