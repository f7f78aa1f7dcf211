import type { Collection } from '@share-arts/contract';
import { Bookmark, LibraryBig } from 'lucide-react';
import { ResponsivePicture } from '../../../ui/responsive-picture';
import styles from './collections.module.css';

/** A collection's cover in a fixed box (the picture whole inside it), or a plain mark when it shows no picture. */
export function CollectionCover({ collection, sizes }: { collection: Collection; sizes: string }) {
  const Mark = collection.kind === 'saved' ? Bookmark : LibraryBig;
  return (
    <span className={styles.cover}>
      {collection.cover ? (
        <ResponsivePicture picture={collection.cover} alt="" sizes={sizes} className={styles.coverPicture} />
      ) : (
        <Mark aria-hidden="true" size="2rem" className={styles.coverMark} />
      )}
    </span>
  );
}
