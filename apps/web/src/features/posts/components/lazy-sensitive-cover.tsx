import { lazy, Suspense, type ComponentProps } from 'react';

// Only a sensitive work needs its cover: the feed loads it when one is on screen. Until then the picture's
// box shows its plain mat, never the picture.
const Cover = lazy(() => import('../../../ui/sensitive-cover'));

export function LazySensitiveCover(props: ComponentProps<typeof Cover>) {
  return (
    <Suspense fallback={null}>
      <Cover {...props} />
    </Suspense>
  );
}
