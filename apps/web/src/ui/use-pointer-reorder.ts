import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';

/** Pixels the pointer travels before a press becomes a drag (a click stays a click). */
const DRAG_THRESHOLD = 6;
/** Height of the bands at the top and bottom of the scrolling dialog (or page) where a drag scrolls it, in px. */
const EDGE = 56;
/** The most a drag scrolls per frame, in px. */
const MAX_SCROLL_STEP = 14;

interface ReorderOptions {
  /** The list whose `<li data-key>` rows are reordered. */
  listRef: RefObject<HTMLElement | null>;
  /** Moves the row `key` to `index` in the data (the rows follow on the next render). */
  onMove: (key: string, index: number) => void;
  /** The drag ended (dropped, or cancelled with Escape after moving it back). */
  onEnd: (key: string, cancelled: boolean) => void;
  /** The list is on a page, not in a dialog: near the window's edges a drag scrolls the page. */
  scrollPage?: boolean;
}

interface Drag {
  key: string;
  pointerId: number;
  startX: number;
  startY: number;
  /** Where in the row the pointer took hold of it. */
  grabY: number;
  lastY: number;
  startIndex: number;
  started: boolean;
  frame: number;
}

function scrollerOf(element: HTMLElement, page: boolean): HTMLElement | null {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if ((overflowY === 'auto' || overflowY === 'scroll') && node.scrollHeight > node.clientHeight) return node;
  }
  // A list on a page, not in a dialog: the document itself scrolls (never behind a dialog, whose page is held still).
  return page && document.scrollingElement instanceof HTMLElement ? document.scrollingElement : null;
}

/**
 * Reordering rows by dragging them with a mouse, a pen or a finger (pointer events, so touch works too;
 * HTML drag-and-drop does not fire on touch screens). The row follows the pointer and the others make
 * room as it passes their middle; near the top or bottom of the scrolling dialog or page it scrolls. Escape puts
 * the row back where it was.
 */
export function usePointerReorder({ listRef, onMove, onEnd, scrollPage = false }: ReorderOptions) {
  const [draggingKey, setDraggingKey] = useState<string | null>(null);
  const drag = useRef<Drag | null>(null);
  const callbacks = useRef({ onMove, onEnd });
  useEffect(() => {
    callbacks.current = { onMove, onEnd };
  });
  const stop = useRef<(() => void) | null>(null);
  // A drag still going when the list goes (the dialog closed) leaves no listener behind.
  useEffect(() => () => stop.current?.(), []);

  const rows = () => [...(listRef.current?.querySelectorAll<HTMLElement>(':scope > li[data-key]') ?? [])];
  const rowOf = (key: string) => rows().find((row) => row.dataset.key === key);

  /** Puts the dragged row under the pointer, wherever the layout now has it. */
  function follow(current: Drag) {
    const row = rowOf(current.key);
    if (!row) return;
    row.style.translate = '';
    const natural = row.getBoundingClientRect().top;
    const y = `${current.lastY - current.grabY - natural}px`;
    row.style.translate = `0 ${y}`;
  }

  /** The index the dragged row belongs at: after every other row whose middle is above the pointer. */
  function targetIndex(current: Drag) {
    return rows()
      .filter((row) => row.dataset.key !== current.key)
      .filter((row) => {
        const rect = row.getBoundingClientRect();
        return rect.top + rect.height / 2 < current.lastY;
      }).length;
  }

  function place(current: Drag) {
    const index = targetIndex(current);
    const now = rows().findIndex((row) => row.dataset.key === current.key);
    if (index !== now) callbacks.current.onMove(current.key, index);
    follow(current);
    // The rows move on React's next render: follow again once they have.
    requestAnimationFrame(() => drag.current === current && follow(current));
  }

  /** While the pointer is held near an edge of the scrolling dialog, scroll it, frame by frame. */
  function autoScroll(current: Drag) {
    current.frame = requestAnimationFrame(() => autoScroll(current));
    const list = listRef.current;
    const scroller = list && scrollerOf(list, scrollPage);
    if (!scroller || !current.started) return;
    const box =
      scroller === document.scrollingElement
        ? { top: 0, bottom: window.innerHeight }
        : scroller.getBoundingClientRect();
    // The dialog's sticky footer covers its bottom: the band starts above it.
    const footer = scroller.querySelector<HTMLElement>('[data-sticky-footer]');
    const bottom = footer ? Math.min(box.bottom, footer.getBoundingClientRect().top) : box.bottom;
    let step = 0;
    if (current.lastY < box.top + EDGE) step = -MAX_SCROLL_STEP * Math.min(1, (box.top + EDGE - current.lastY) / EDGE);
    else if (current.lastY > bottom - EDGE)
      step = MAX_SCROLL_STEP * Math.min(1, (current.lastY - bottom + EDGE) / EDGE);
    if (step === 0) return;
    const before = scroller.scrollTop;
    scroller.scrollTop += step;
    if (scroller.scrollTop !== before) place(current);
  }

  function end(cancelled: boolean) {
    const current = drag.current;
    stop.current?.();
    if (!current) return;
    drag.current = null;
    cancelAnimationFrame(current.frame);
    const row = rowOf(current.key);
    if (row) row.style.translate = '';
    if (!current.started) return;
    if (cancelled) callbacks.current.onMove(current.key, current.startIndex);
    setDraggingKey(null);
    callbacks.current.onEnd(current.key, cancelled);
  }

  /** For the handle's onPointerDown: starts following the pointer; a drag begins once it has moved a little. */
  function onPointerDown(event: ReactPointerEvent<HTMLElement>, key: string) {
    if (!event.isPrimary || event.button !== 0 || drag.current) return;
    const row = rowOf(key);
    if (!row) return;
    const rect = row.getBoundingClientRect();
    const current: Drag = {
      key,
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      grabY: event.clientY - rect.top,
      lastY: event.clientY,
      startIndex: rows().indexOf(row),
      started: false,
      frame: 0,
    };
    drag.current = current;

    // On the window, not the row: the row moves in the document as it is reordered, which would end a capture.
    const onPointerMove = (move: PointerEvent) => {
      if (move.pointerId !== current.pointerId) return;
      current.lastY = move.clientY;
      if (!current.started) {
        if (Math.hypot(move.clientX - current.startX, move.clientY - current.startY) < DRAG_THRESHOLD) return;
        current.started = true;
        setDraggingKey(key);
        autoScroll(current);
      }
      move.preventDefault();
      place(current);
    };
    const onPointerUp = (up: PointerEvent) => up.pointerId === current.pointerId && end(false);
    const onPointerCancel = (cancel: PointerEvent) => cancel.pointerId === current.pointerId && end(true);
    const onKeyDown = (key: KeyboardEvent) => {
      if (key.key !== 'Escape' || !current.started) return;
      // The row goes back; the dialog stays open.
      key.preventDefault();
      key.stopPropagation();
      end(true);
    };
    window.addEventListener('pointermove', onPointerMove);
    window.addEventListener('pointerup', onPointerUp);
    window.addEventListener('pointercancel', onPointerCancel);
    window.addEventListener('keydown', onKeyDown, true);
    stop.current = () => {
      window.removeEventListener('pointermove', onPointerMove);
      window.removeEventListener('pointerup', onPointerUp);
      window.removeEventListener('pointercancel', onPointerCancel);
      window.removeEventListener('keydown', onKeyDown, true);
      stop.current = null;
    };
  }

  return { draggingKey, onPointerDown };
}
