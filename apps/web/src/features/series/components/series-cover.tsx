import type { Series } from '@share-arts/contract';
import { Layers } from 'lucide-react';
import { ResponsivePicture } from '../../../ui/responsive-picture';
import styles from './series-row.module.css';

/** A series' cover in a fixed box (the picture whole inside it), or a plain mark when it shows no picture. */
export function SeriesCover({ series, sizes }: { series: Series; sizes: string }) {
  return (
    <span className={styles.cover}>
      {series.cover ? (
        <ResponsivePicture picture={series.cover} alt="" sizes={sizes} className={styles.coverPicture} />
      ) : (
        <Layers aria-hidden="true" size="2rem" className={styles.coverMark} />
      )}
    </span>
  );
}
