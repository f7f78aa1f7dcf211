import { t } from '@lingui/core/macro';
import type { Picture, Post } from '@share-arts/contract';
import { useSyncExternalStore } from 'react';
import { useCurrentUser } from '../../../lib/session';

/** The posts whose sensitive pictures the viewer chose to see, for as long as the page lives (in memory only). */
const revealed = new Set<string>();
const listeners = new Set<() => void>();

export function revealPost(postId: string): void {
  revealed.add(postId);
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** How the viewer sees sensitive works: their setting, "blur" for a visitor (the default). */
export function useSensitiveMode(): 'show' | 'blur' | 'hide' {
  const { data: me } = useCurrentUser();
  return me?.settings?.sensitiveMedia ?? 'blur';
}

/**
 * A warning as a person reads it: the offered ones by name (in the current language, said at call time), the
 * author's own words as they wrote them.
 */
export function warningLabel(warning: string): string {
  switch (warning) {
    case 'nudity':
      return t`Nudity`;
    case 'blood':
      return t`Blood`;
    case 'flashing':
      return t`Flashing lights`;
    default:
      return warning;
  }
}

/**
 * Whether a post's pictures are covered for this viewer now, and how: null when they are shown (no warning,
 * the setting "show", or revealed with Show); otherwise "blur" (a blurred preview) or "hide" (the warning
 * alone).
 */
export function useSensitiveCover(post: Pick<Post, '_id' | 'contentWarning'>): 'blur' | 'hide' | null {
  const mode = useSensitiveMode();
  const shown = useSyncExternalStore(
    subscribe,
    () => revealed.has(post._id),
    () => false,
  );
  if (!post.contentWarning || mode === 'show' || shown) return null;
  return mode;
}

/** A flashing-warned work's pictures without their animation: it never plays by itself. */
export function stillPictures(post: Pick<Post, 'contentWarning'>, pictures: readonly Picture[]): readonly Picture[] {
  if (post.contentWarning !== 'flashing') return pictures;
  return pictures.map((picture) =>
    picture.animated
      ? { ...picture, sources: picture.sources.filter((source) => !source.media?.includes('prefers-reduced-motion')) }
      : picture,
  );
}
