/** The Share Arts mark: a sun over a canvas. Decorative; the product name sits beside it. */
export function BrandMark({ size = 1.75 }: { size?: number }) {
  const dimension = `calc(${size}rem*var(--space-factor))`;
  return (
    <svg
      viewBox="0 0 32 32"
      width="32"
      height="32"
      style={{ width: dimension, height: dimension }}
      aria-hidden="true"
      focusable="false"
    >
      <rect width="32" height="32" rx="8" style={{ fill: 'var(--color-mark-canvas)' }} />
      <circle cx="13" cy="13" r="7" fill="#d6806a" />
      <rect x="14" y="15" width="11" height="11" rx="2" fill="#f1e9e7" />
    </svg>
  );
}
