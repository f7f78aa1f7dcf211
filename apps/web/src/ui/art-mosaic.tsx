import styles from './art-mosaic.module.css';

const TILES = ['sunset', 'ink', 'blue', 'stripes', 'ochre', 'sage'] as const;

/** Decorative artwork for the landing and sign-in pages. */
export function ArtMosaic({ className }: { className?: string }) {
  return (
    <div className={[styles.mosaic, className].filter(Boolean).join(' ')} aria-hidden="true">
      {TILES.map((tile) => (
        <span key={tile} className={`${styles.tile} ${styles[tile]}`} />
      ))}
    </div>
  );
}
