/**
 * A series' order as the web app changes it: one move per request, the shared functions of lib/one-move-order.ts
 * (collections use them too), and the series' own chapters.
 */
import type { OrderMove } from '../../../lib/one-move-order';

export { applyMove, dropMove, moveTo, stepMove, uniqueById } from '../../../lib/one-move-order';

/** One move for the server: put the work right after `after` (null: first). */
export type SeriesMove = OrderMove;

/** A run of works under one chapter heading (null: before the first chapter, or a series without any). */
export interface ChapterRun<T> {
  chapter: string | null;
  /** The index of the run's first work in the whole list. */
  start: number;
  items: T[];
}

/**
 * The works cut into chapters. A work's chapter is the chapter it opens or belongs to: a heading goes before
 * a work whose chapter is set and differs from the chapter it follows; a work without one stays in the chapter
 * before it (so an artist may name only each chapter's first work, or every work of it).
 */
export function chapterRuns<T>(items: readonly T[], chapterOf: (item: T) => string | null): ChapterRun<T>[] {
  const runs: ChapterRun<T>[] = [];
  let current: ChapterRun<T> | undefined;
  items.forEach((item, index) => {
    const chapter = chapterOf(item)?.trim() || null;
    if (!current || (chapter !== null && chapter !== current.chapter)) {
      current = { chapter, start: index, items: [] };
      runs.push(current);
    }
    current.items.push(item);
  });
  return runs;
}
