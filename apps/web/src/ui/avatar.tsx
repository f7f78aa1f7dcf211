import { useState } from 'react';
import styles from './avatar.module.css';

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
  const dimension = `calc(${size}rem*var(--space-factor))`;
  const showImage = Boolean(src) && !failed;
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
      {showImage ? (
        // Lazy: small and never the page's largest paint, it need not be fetched before the layout.
        <img src={src} alt={decorative ? '' : name} loading="lazy" decoding="async" onError={() => setFailed(true)} />
      ) : (
        <span aria-hidden="true">{initials(name)}</span>
      )}
    </span>
  );
}
