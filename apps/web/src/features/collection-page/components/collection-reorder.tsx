import { Trans, useLingui } from '@lingui/react/macro';
import type { Collection } from '@share-arts/contract';
import { ArrowDown, ArrowUp, GripVertical } from 'lucide-react';
import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { dropMove, moveTo, stepMove, uniqueById, type OrderMove } from '../../../lib/one-move-order';
import { Button } from '../../../ui/button';
import { ResponsivePicture } from '../../../ui/responsive-picture';
import { isRightToLeft, orderStep } from '../../../ui/arrow-keys';
import { usePointerReorder } from '../../../ui/use-pointer-reorder';
import { useCollectionWorks, useMoveCollectionWorks } from '../../collections/page';
import { workName } from '../../series';
import styles from './collection-page.module.css';

interface PendingFocus {
  key: string;
  control: 'handle' | 'up' | 'down';
}

/**
 * The owner's Reorder mode: the works loaded so far as a list, each moved three ways: drag its handle (one request
 * when it is let go); focus the handle and press Alt with an arrow key; or Move earlier / Move later. Each move is
 * one request and is announced with the work's new place.
 */
export function CollectionReorder({ collection }: { collection: Collection }) {
  const { t } = useLingui();
  const { data, isPending, isError, error, refetch, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useCollectionWorks(collection._id);
  const [announcement, setAnnouncement] = useState('');
  const moves = useMoveCollectionWorks(collection, (message) =>
    setAnnouncement(t`The move was not saved: ${message} The order is read again.`),
  );
  const works = useMemo(
    () => uniqueById(data?.pages.flatMap((page) => page.works) ?? [], (work) => work.post._id),
    [data],
  );
  const listRef = useRef<HTMLOListElement>(null);
  const pendingFocus = useRef<PendingFocus | null>(null);
  const [dragOrder, setDragOrder] = useState<string[] | null>(null);
  const dragRef = useRef<string[] | null>(null);
  const moved = useRef(false);
  const loadMore = async () => {
    if (isFetchingNextPage) return;
    if (moved.current) {
      moved.current = false;
      await moves.settled();
      await refetch();
    }
    void fetchNextPage();
  };
  const instructionsId = 'collection-reorder-instructions';

  const ids = works.map((work) => work.post._id);
  const byId = new Map(works.map((work) => [work.post._id, work]));
  const shown = (dragOrder ?? ids).flatMap((id) => byId.get(id) ?? []);
  const total = shown.length;
  const count = hasNextPage ? Math.max(collection.workCount, total) : total;
  // "Sunset, place 3 of 12": a row's accessible name.
  const placeLabel = (name: string, index: number) => {
    const place = index + 1;
    return t`${name}, place ${place} of ${count}`;
  };

  const commit = (move: OrderMove | null, control: PendingFocus['control']) => {
    if (!move) return;
    pendingFocus.current = { key: move.postId, control };
    const next = ids.filter((id) => id !== move.postId);
    next.splice(move.after === null ? 0 : next.indexOf(move.after) + 1, 0, move.postId);
    moves.move(move);
    moved.current = true;
    const work = byId.get(move.postId);
    const name = work ? workName(work.post) : t`Work`;
    const place = next.indexOf(move.postId) + 1;
    setAnnouncement(t`${name} moved to place ${place} of ${count}.`);
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
        setAnnouncement(t`${name} is back in its place.`);
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
      const work = byId.get(ids[index] ?? '');
      const name = work ? workName(work.post) : t`This work`;
      setAnnouncement(
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
          <Trans>The works of this collection could not be loaded: {problem}</Trans>
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
        <p className={styles.status}>
          <Trans>This collection has no works to order yet.</Trans>
        </p>
      ) : (
        <>
          <p id={instructionsId} className={styles.status}>
            <Trans>
              Drag a work by its handle, or focus the handle and press Alt with an arrow key, or use Move earlier and
              Move later. Each move is saved at once.
            </Trans>
          </p>
          <ol ref={listRef} className={styles.reorder}>
            {shown.map((work, index) => {
              const { post } = work;
              const name = workName(post);
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
                    <GripVertical aria-hidden="true" size="1.1em" />
                    <span className={styles.thumb}>
                      {picture && !post.contentWarning ? (
                        <ResponsivePicture picture={picture} alt="" sizes="64px" />
                      ) : (
                        <span className={styles.noPicture} aria-hidden="true">
                          {post.contentWarning ? t`Sensitive` : '—'}
                        </span>
                      )}
                    </span>
                  </button>
                  <div className={styles.rowText}>
                    <p className={styles.rowName}>
                      {index + 1}. {name}
                    </p>
                    {work.note && <p className={styles.rowNote}>{work.note}</p>}
                  </div>
                  <div className={styles.rowActions}>
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
                  </div>
                </li>
              );
            })}
          </ol>
          {hasNextPage && (
            <div className={styles.end}>
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
    </>
  );
}
