import { plural, t } from '@lingui/core/macro';
import { LIMITS, type Picture } from '@share-arts/contract';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { currentLocale } from '../../../../lib/current-locale';
import { inspectPicture } from '../../../../lib/use-picture-input';
import { uploadPicture } from '../../api/upload-picture';
import { createPictureDraft } from './picture-draft';

/** File names as the language lists things ("a, b, c, …"; "a、b、c、…" in Japanese), the first three at most. */
const listOf = (names: string[]) =>
  new Intl.ListFormat(currentLocale(), { type: 'conjunction', style: 'narrow' }).format(
    names.length > 3 ? [...names.slice(0, 3), '…'] : names,
  );

/**
 * The composer's pictures: the draft (starting with the post's saved pictures when editing) wired to the
 * browser's checks and to POST /api/media, its current list, a way to add files that says what was left
 * out, and the words for the live region that reports changes.
 */
export function useComposerPictures(
  saved: readonly Picture[],
  /** A list of its own (a work's process pictures, issue 41): its most, and whose list the left-out note names. */
  { max = LIMITS.postPicturesMax, holder = 'post' }: { max?: number; holder?: 'post' | 'work' } = {},
) {
  const [draft] = useState(() =>
    createPictureDraft(saved, {
      max,
      inspect: inspectPicture,
      upload: (file, alt, { onProgress, onSent, signal }) => uploadPicture(file, alt, { onProgress, onSent, signal }),
      createPreview: (file) => URL.createObjectURL(file),
      revokePreview: (url) => URL.revokeObjectURL(url),
    }),
  );
  const items = useSyncExternalStore(draft.subscribe, draft.get);
  // Closing the composer cancels the uploads still going and frees the previews.
  useEffect(() => {
    draft.activate();
    return () => draft.dispose();
  }, [draft]);

  const [announcement, setAnnouncement] = useState('');
  // The same words twice are not announced again: alternate an invisible difference.
  const announce = (message: string) =>
    setAnnouncement((before) => (before === message ? `${message}\u00a0` : message));

  const [leftOut, setLeftOut] = useState<string>();
  const add = (files: File[]) => {
    if (files.length === 0) return;
    const result = draft.add(files);
    const left = result.leftOut.map((file) => file.name);
    const count = left.length;
    const names = listOf(left);
    const note =
      count === 0
        ? undefined
        : holder === 'work'
          ? t`A work holds up to ${max} process pictures: ${plural(count, {
              one: `# file was left out (${names}).`,
              other: `# files were left out (${names}).`,
            })}`
          : t`A post holds up to ${max} pictures: ${plural(count, {
              one: `# file was left out (${names}).`,
              other: `# files were left out (${names}).`,
            })}`;
    setLeftOut(note);
    const addedCount = result.added;
    const added = t`${plural(addedCount, { one: '# picture added.', other: '# pictures added.' })}`;
    announce(note ? `${added} ${note}` : added);
  };

  return { draft, items, add, leftOut, announcement, announce };
}

export type ComposerPictures = ReturnType<typeof useComposerPictures>;
