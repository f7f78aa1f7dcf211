import { useState } from 'react';
import styles from './avatar.module.css';
import { usePictureGate } from './picture-gate';

interface AvatarProps {
  src?: string;
  name: string;
  /** Diameter in rem. */
  size?: number;
  /** Decorative when the name is already next to it. */
  decorative?: boolean;
}

function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '');
  return letters.join('') || '?';
}

export function Avatar({ src, name, size = 2.5, decorative = false }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  // On a visit's first page the photo waits for the page's main picture (see picture-gate.ts).
  const mayLoad = usePictureGate();
  const dimension = `calc(${size}rem * var(--space-factor))`;
  const hasImage = Boolean(src) && !failed;
  const showImage = hasImage && mayLoad;
  return (
    <span
      className={styles.avatar}
      style={{
        width: dimension,
        height: dimension,
        fontSize: `calc(${size * 0.38}rem * var(--type-factor))`,
      }}
      role={decorative || showImage ? undefined : 'img'}
      aria-label={decorative || showImage ? undefined : name}
      aria-hidden={decorative || undefined}
    >
      {showImage && (
        <img src={src} alt={decorative ? '' : name} loading="lazy" decoding="async" onError={() => setFailed(true)} />
      )}
      {!hasImage && <span aria-hidden="true">{initials(name)}</span>}
    </span>
  );
}
