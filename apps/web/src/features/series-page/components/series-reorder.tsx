import { Trans, useLingui } from '@lingui/react/macro';
import type { Series, SeriesWork } from '@share-arts/contract';
import { ArrowDown, ArrowUp, GripVertical, Pencil } from 'lucide-react';
import { useLayoutEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import layout from '../../../ui/dialog-layout.module.css';
import { TextField } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import { ResponsivePicture } from '../../../ui/responsive-picture';
import { isRightToLeft, orderStep } from '../../../ui/arrow-keys';
import { usePointerReorder } from '../../../ui/use-pointer-reorder';
import {
  SERIES_TEXT_MAX,
  dropMove,
  moveTo,
  stepMove,
  uniqueById,
  useMoveWorks,
  useSeriesWorks,
  useSetChapter,
  workName,
  type SeriesMove,
} from '../../series';
import styles from './series-reorder.module.css';

/** Which control of which row takes focus after the next render: a move re-inserts the row, which drops focus. */
interface PendingFocus {
  key: string;
  control: 'handle' | 'up' | 'down';
}

/** "Chapter" of one work: the name it opens or belongs to, or none. */
function ChapterDialog({ series, work, onClose }: { series: Series; work: SeriesWork; onClose: () => void }) {
  const { t } = useLingui();
  const [chapter, setChapter] = useState(work.chapter ?? '');
  const [problem, setProblem] = useState<string | undefined>();
  const save = useSetChapter(series);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    save.mutate(
      { postId: work.post._id, chapter },
      { onSuccess: onClose, onError: (error) => setProblem(errorMessage(error)) },
    );
  };
  return (
    <Modal title={t`Chapter`} onClose={onClose} busy={save.isPending} size="sm">
      <form className={layout.form} onSubmit={onSubmit} noValidate>
        <TextField
          label={t`Chapter of “${name}”`}
          hint={t`The chapter this work opens or belongs to, e.g. “Issue 2”. Leave it empty for none: the work stays in the chapter before it.`}
          value={chapter}
          maxLength={SERIES_TEXT_MAX.chapter}
          onChange={(event) => setChapter(event.target.value)}
          error={problem}
          readOnly={save.isPending}
          data-autofocus
        />
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" className={layout.busySubmit} aria-disabled={save.isPending || undefined}>
            {save.isPending ? t`Saving…` : t`Save`}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * The owner's Reorder mode: the works loaded so far as a list, each moved three ways: drag its handle (one request
 * when it is let go); focus the handle and press Alt with an arrow key; or its Move earlier and Move later buttons.
 * Each move is one request and is announced with the work's new place. Works further on load with "Load more
 * works", so that a move can reach them.
 */
export function SeriesReorder({ series }: { series: Series }) {
  const { t } = useLingui();
  const { data, isPending, isError, error, refetch, hasNextPage, isFetchingNextPage, fetchNextPage } = useSeriesWorks(
    series._id,
  );
  const [announcement, setAnnouncement] = useState('');
  const announce = (text: string) => setAnnouncement(text);
  const moves = useMoveWorks(series, (message) =>
    announce(t`The move was not saved: ${message} The order is read again.`),
  );
  const works = useMemo(
    () => uniqueById(data?.pages.flatMap((page) => page.works) ?? [], (work) => work.post._id),
    [data],
  );
  const listRef = useRef<HTMLOListElement>(null);
  const pendingFocus = useRef<PendingFocus | null>(null);
  // While a drag is under way, the order it shows (ids); the cache changes once, when it is let go.
  const [dragOrder, setDragOrder] = useState<string[] | null>(null);
  const dragRef = useRef<string[] | null>(null);
  const [chapterOf, setChapterOf] = useState<SeriesWork | null>(null);
  // Moves made since the pages were read: the next page's cursor may no longer follow the last work shown.
  const moved = useRef(false);
  const loadMore = async () => {
    if (isFetchingNextPage) return;
    if (moved.current) {
      moved.current = false;
      await moves.settled();
      // Every page read again, in the order the server now holds, each from the one before it.
      await refetch();
    }
    void fetchNextPage();
  };
  const instructionsId = 'series-reorder-instructions';

  const ids = works.map((work) => work.post._id);
  const byId = new Map(works.map((work) => [work.post._id, work]));
  const shown = (dragOrder ?? ids).flatMap((id) => byId.get(id) ?? []);
  const total = shown.length;
  // More pages after these: the count the server holds, as "of N" says it.
  const count = hasNextPage ? Math.max(series.workCount, total) : total;
  // "Sunset, place 3 of 12": a row's accessible name.
  const placeLabel = (name: string, index: number) => {
    const place = index + 1;
    return t`${name}, place ${place} of ${count}`;
  };

  const placeText = (move: SeriesMove, order: readonly string[]) => {
    const work = byId.get(move.postId);
    const index = order.indexOf(move.postId);
    const name = work ? workName(work.post) : t`Work`;
    const place = index + 1;
    return t`${name} moved to place ${place} of ${count}.`;
  };

  const commit = (move: SeriesMove | null, control: PendingFocus['control']) => {
    if (!move) return;
    pendingFocus.current = { key: move.postId, control };
    const next = [...ids];
    const from = next.indexOf(move.postId);
    next.splice(from, 1);
    const at = move.after === null ? 0 : next.indexOf(move.after) + 1;
    next.splice(at, 0, move.postId);
    moves.move(move);
    moved.current = true;
    announce(placeText(move, next));
  };

  const { draggingKey, onPointerDown } = usePointerReorder({
    listRef,
    scrollPage: true,
    onMove: (key, index) => {
      const next = moveTo(dragRef.current ?? ids, (id) => id, key, index);
      dragRef.current = next;
      setDragOrder(next);
    },
    onEnd: (key, cancelled) => {
      const dropped = dragRef.current;
      dragRef.current = null;
      setDragOrder(null);
      const move = !cancelled && dropped ? dropMove(ids, dropped, key) : null;
      if (move) commit(move, 'handle');
      else {
        const back = byId.get(key);
        const name = back ? workName(back.post) : t`Work`;
        announce(t`${name} is back in its place.`);
      }
    },
  });

  useLayoutEffect(() => {
    const pending = pendingFocus.current;
    if (!pending) return;
    pendingFocus.current = null;
    const row = listRef.current?.querySelector<HTMLElement>(`:scope > li[data-key="${CSS.escape(pending.key)}"]`);
    if (!row) return;
    let target = row.querySelector<HTMLButtonElement>(`[data-focus="${pending.control}"]`);
    // Moved to an end, its button there is now disabled: the other one keeps focus in the row.
    if (target?.getAttribute('aria-disabled') === 'true') {
      target = row.querySelector<HTMLButtonElement>(`[data-focus="${pending.control === 'up' ? 'down' : 'up'}"]`);
    }
    if (target && document.activeElement !== target) target.focus();
  });

  const onHandleKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    // ↑ earlier, ↓ later; ← and → along the line (→ is earlier right to left, in Arabic).
    const by = orderStep(event.key, isRightToLeft(event.currentTarget));
    if (by === 0 || !event.altKey) return;
    event.preventDefault();
    const move = stepMove(ids, index, by);
    if (move) commit(move, 'handle');
    else {
      const stuck = byId.get(ids[index] ?? '');
      const name = stuck ? workName(stuck.post) : t`This work`;
      announce(
        by < 0
          ? t`${name} is already the first.`
          : hasNextPage
            ? t`${name} is already the last one loaded; load more works to move it further.`
            : t`${name} is already the last.`,
      );
    }
  };

  if (isPending) {
    return (
      <p className={styles.status} role="status">
        <Trans>Loading works…</Trans>
      </p>
    );
  }
  if (isError && !data) {
    const problem = errorMessage(error);
    return (
      <div className={styles.problem} role="alert">
        <p>
          <Trans>The works of this series could not be loaded: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }

  return (
    <>
      <p className={styles.status} role="status">
        {announcement}
      </p>
      {total === 0 ? (
        <p className={styles.empty}>
          <Trans>This series has no works to order yet.</Trans>
        </p>
      ) : (
        <>
          <p id={instructionsId} className={styles.instructions}>
            <Trans>
              Drag a work by its handle, or focus the handle and press Alt with an arrow key, or use Move earlier and
              Move later. Each move is saved at once.
            </Trans>
          </p>
          <ol ref={listRef} className={[styles.list, draggingKey && styles.listDragging].filter(Boolean).join(' ')}>
            {shown.map((work, index) => {
              const { post } = work;
              const name = workName(post);
              const chapter = work.chapter;
              const picture = post.media?.[0] ?? post.picture;
              const first = index === 0;
              const last = index === total - 1;
              return (
                <li
                  key={post._id}
                  data-key={post._id}
                  className={[styles.row, draggingKey === post._id && styles.dragging].filter(Boolean).join(' ')}
                >
                  <button
                    type="button"
                    className={styles.handle}
                    data-focus="handle"
                    aria-label={placeLabel(name, index)}
                    aria-describedby={instructionsId}
                    onKeyDown={(event) => onHandleKeyDown(event, index)}
                    onPointerDown={(event) => onPointerDown(event, post._id)}
                  >
                    <GripVertical aria-hidden="true" size="1.1em" className={styles.grip} />
                    <span className={styles.thumb}>
                      {/* A work with a content warning is named, not shown, here too. */}
                      {picture && !post.contentWarning ? (
                        <ResponsivePicture picture={picture} alt="" sizes="64px" />
                      ) : (
                        <span className={styles.noPicture} aria-hidden="true">
                          {post.contentWarning ? t`Sensitive` : '—'}
                        </span>
                      )}
                    </span>
                  </button>
                  <div className={styles.details}>
                    <p className={styles.name}>
                      <span className={styles.number}>{index + 1}.</span> {name}
                    </p>
                    {work.chapter && (
                      <p className={styles.chapter}>
                        <Trans>Chapter: {chapter}</Trans>
                      </p>
                    )}
                  </div>
                  <div className={styles.actions}>
                    <Button
                      variant="icon"
                      data-focus="up"
                      aria-label={t`Move “${name}” earlier`}
                      aria-disabled={first || undefined}
                      onClick={() => !first && commit(stepMove(ids, index, -1), 'up')}
                    >
                      <ArrowUp aria-hidden="true" size="1.1em" />
                    </Button>
                    <Button
                      variant="icon"
                      data-focus="down"
                      aria-label={t`Move “${name}” later`}
                      aria-disabled={last || undefined}
                      onClick={() => !last && commit(stepMove(ids, index, 1), 'down')}
                    >
                      <ArrowDown aria-hidden="true" size="1.1em" />
                    </Button>
                    <Button variant="icon" aria-label={t`Chapter of “${name}”`} onClick={() => setChapterOf(work)}>
                      <Pencil aria-hidden="true" size="1.05em" />
                    </Button>
                  </div>
                </li>
              );
            })}
          </ol>
          {hasNextPage && (
            <div className={styles.more}>
              <Button
                variant="secondary"
                onClick={() => void loadMore()}
                aria-disabled={isFetchingNextPage || undefined}
              >
                {isFetchingNextPage ? t`Loading more works…` : t`Load more works`}
              </Button>
            </div>
          )}
        </>
      )}
      {chapterOf && <ChapterDialog series={series} work={chapterOf} onClose={() => setChapterOf(null)} />}
    </>
  );
}
