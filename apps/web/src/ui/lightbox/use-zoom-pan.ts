import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import {
  clampView,
  fitScale,
  isZoomed,
  panBy,
  stepScale,
  toggledScale,
  zoomTo,
  type Point,
  type Size,
  type View,
} from './zoom';

/** A finger or the mouse moving less than this is a tap or a click, not a drag. */
const TAP_SLOP = 8;
/** Two taps closer than this in time (ms) and space (px) are a double-tap. */
const DOUBLE_TAP_MS = 300;
const DOUBLE_TAP_SLOP = 30;
/** A sideways swipe at least this long (px) goes to the next or previous picture. */
const SWIPE_MIN = 50;

type Gesture =
  | { kind: 'pan'; start: Point; view: View; moved: boolean }
  | { kind: 'pinch'; distance: number; middle: Point; view: View }
  | { kind: 'swipe'; start: Point; moved: boolean };

interface ZoomState {
  /** The picture this zoom belongs to: another picture starts fitted. */
  key: string;
  /** null: fitted, following the stage's size. */
  view: View | null;
  /** A discrete step (keys, buttons, double-click) eases; a gesture follows the fingers at once. */
  eased: boolean;
}

interface Options {
  stageRef: RefObject<HTMLElement | null>;
  /** Changes with the picture shown. */
  pictureKey: string;
  picture: Size;
  pixelated: boolean;
  /** A sideways swipe while the picture is fitted: 1 for the next picture, -1 for the previous. */
  onSwipe: (direction: 1 | -1) => void;
}

function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/**
 * Zoom and pan of the picture on the viewer's stage: the wheel (and a trackpad's pinch) zooms around the
 * cursor, two fingers pinch and move it, a drag pans it once zoomed (and swipes between pictures while it is
 * fitted), a double-click or double-tap goes to 100 % at that point and back. The returned actions serve the
 * keys and buttons.
 */
export function useZoomPan({ stageRef, pictureKey, picture, pixelated, onSwipe }: Options) {
  const [stage, setStage] = useState<Size>({ width: 0, height: 0 });
  const [zoom, setZoom] = useState<ZoomState>({ key: pictureKey, view: null, eased: false });
  const [dragging, setDragging] = useState(false);

  useLayoutEffect(() => {
    const element = stageRef.current;
    if (!element) return;
    const measure = () => {
      const { width, height } = element.getBoundingClientRect();
      setStage((previous) => (previous.width === width && previous.height === height ? previous : { width, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [stageRef]);

  const fit = fitScale(picture, stage, pixelated);
  const current = zoom.key === pictureKey ? zoom : { key: pictureKey, view: null, eased: false };
  const view = current.view ? clampView(current.view, picture, stage) : { scale: fit, x: 0, y: 0 };
  const zoomed = isZoomed(view, fit);

  // The event listeners below read the latest values through this.
  const latest = useRef({ view, fit, picture, stage, pictureKey, zoomed, onSwipe });
  useEffect(() => {
    latest.current = { view, fit, picture, stage, pictureKey, zoomed, onSwipe };
  });

  const set = (next: View, eased: boolean) => {
    const { fit: nowFit, pictureKey: key } = latest.current;
    // Back at the fit, the picture follows the stage again (a window resized, a phone turned).
    const fitted = Math.abs(next.scale - nowFit) < 1e-6 && next.x === 0 && next.y === 0;
    setZoom({ key, view: fitted ? null : next, eased });
  };

  const centre: Point = { x: 0, y: 0 };
  const actions = {
    zoomIn: () => set(zoomTo(view, stepScale(view.scale, fit, 1), centre, picture, stage, fit), true),
    zoomOut: () => set(zoomTo(view, stepScale(view.scale, fit, -1), centre, picture, stage, fit), true),
    fit: () => set({ scale: fit, x: 0, y: 0 }, true),
    actualSize: () => set(zoomTo(view, 1, centre, picture, stage, fit), true),
    toggle: () => set(zoomTo(view, toggledScale(view, fit), centre, picture, stage, fit), true),
    /** Moves the picture by a share of the stage (the arrow keys): dx 1 shows more of its right side. */
    pan: (dx: number, dy: number) =>
      set(panBy(view, -dx * stage.width * 0.1, -dy * stage.height * 0.1, picture, stage), true),
  };

  useEffect(() => {
    const element = stageRef.current;
    if (!element) return;
    const pointers = new Map<number, Point>();
    let gesture: Gesture | null = null;
    let lastTap: { time: number; at: Point } | null = null;
    // A double-tap may also come as a dblclick: only the mouse's count.
    let lastPointerType = 'mouse';

    /** A point of the page, relative to the stage's centre. */
    const fromCentre = (clientX: number, clientY: number): Point => {
      const rect = element.getBoundingClientRect();
      return { x: clientX - rect.left - rect.width / 2, y: clientY - rect.top - rect.height / 2 };
    };
    const toggleAt = (at: Point) => {
      const { view: now, fit: nowFit, picture: size, stage: area } = latest.current;
      set(zoomTo(now, toggledScale(now, nowFit), at, size, area, nowFit), true);
    };
    const pinchOf = (): Gesture => {
      const [a, b] = [...pointers.values()] as [Point, Point];
      const middle = fromCentre((a.x + b.x) / 2, (a.y + b.y) / 2);
      return { kind: 'pinch', distance: Math.max(1, distance(a, b)), middle, view: latest.current.view };
    };
    const startSingle = (at: Point): Gesture => {
      if (latest.current.zoomed) return { kind: 'pan', start: at, view: latest.current.view, moved: false };
      return { kind: 'swipe', start: at, moved: false };
    };

    const onPointerDown = (event: PointerEvent) => {
      if (event.pointerType === 'mouse' && event.button !== 0) return;
      lastPointerType = event.pointerType;
      element.setPointerCapture(event.pointerId);
      const at = { x: event.clientX, y: event.clientY };
      pointers.set(event.pointerId, at);
      if (pointers.size === 2) gesture = pinchOf();
      else if (pointers.size === 1) gesture = startSingle(at);
      if (gesture?.kind === 'pan') setDragging(true);
    };

    const onPointerMove = (event: PointerEvent) => {
      if (!pointers.has(event.pointerId) || !gesture) return;
      const at = { x: event.clientX, y: event.clientY };
      pointers.set(event.pointerId, at);
      const { fit: nowFit, picture: size, stage: area } = latest.current;
      if (gesture.kind === 'pinch' && pointers.size >= 2) {
        const [a, b] = [...pointers.values()] as [Point, Point];
        const middle = fromCentre((a.x + b.x) / 2, (a.y + b.y) / 2);
        const scale = (gesture.view.scale * distance(a, b)) / gesture.distance;
        const zoomedView = zoomTo(gesture.view, scale, gesture.middle, size, area, nowFit);
        set(panBy(zoomedView, middle.x - gesture.middle.x, middle.y - gesture.middle.y, size, area), false);
      } else if (gesture.kind === 'pan') {
        const dx = at.x - gesture.start.x;
        const dy = at.y - gesture.start.y;
        if (!gesture.moved && Math.hypot(dx, dy) < TAP_SLOP) return;
        gesture.moved = true;
        set(panBy(gesture.view, dx, dy, size, area), false);
      } else if (gesture.kind === 'swipe') {
        if (Math.hypot(at.x - gesture.start.x, at.y - gesture.start.y) >= TAP_SLOP) gesture.moved = true;
      }
    };

    const onPointerUp = (event: PointerEvent) => {
      const at = pointers.get(event.pointerId);
      if (!at) return;
      pointers.delete(event.pointerId);
      const ended = gesture;
      // One finger left of a pinch goes on panning from where the pinch left the picture.
      if (pointers.size === 1) {
        const [rest] = [...pointers.values()] as [Point];
        gesture = startSingle(rest);
        return;
      }
      if (pointers.size > 0) return;
      gesture = null;
      setDragging(false);
      if (event.type === 'pointercancel' || !ended) return;
      if (ended.kind === 'swipe') {
        const dx = event.clientX - ended.start.x;
        const dy = event.clientY - ended.start.y;
        if (Math.abs(dx) >= SWIPE_MIN && Math.abs(dx) > Math.abs(dy) * 1.5) {
          latest.current.onSwipe(dx < 0 ? 1 : -1);
          return;
        }
      }
      const tapped = ended.kind === 'swipe' ? !ended.moved : ended.kind === 'pan' && !ended.moved;
      // Double-tap on touch; the mouse has dblclick (below).
      if (!tapped || event.pointerType === 'mouse') return;
      const now = event.timeStamp;
      if (lastTap && now - lastTap.time < DOUBLE_TAP_MS && distance(lastTap.at, at) < DOUBLE_TAP_SLOP) {
        lastTap = null;
        toggleAt(fromCentre(at.x, at.y));
      } else {
        lastTap = { time: now, at };
      }
    };

    const onDoubleClick = (event: MouseEvent) => {
      if (lastPointerType !== 'mouse') return;
      toggleAt(fromCentre(event.clientX, event.clientY));
    };

    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const { view: now, fit: nowFit, picture: size, stage: area } = latest.current;
      const lines = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? area.height : 1;
      // A trackpad's pinch arrives as a wheel with ctrlKey, in small steps: it needs a larger factor.
      const factor = Math.exp(-event.deltaY * lines * (event.ctrlKey ? 0.01 : 0.0015));
      set(zoomTo(now, now.scale * factor, fromCentre(event.clientX, event.clientY), size, area, nowFit), false);
    };

    element.addEventListener('pointerdown', onPointerDown);
    element.addEventListener('pointermove', onPointerMove);
    element.addEventListener('pointerup', onPointerUp);
    element.addEventListener('pointercancel', onPointerUp);
    element.addEventListener('dblclick', onDoubleClick);
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      element.removeEventListener('pointerdown', onPointerDown);
      element.removeEventListener('pointermove', onPointerMove);
      element.removeEventListener('pointerup', onPointerUp);
      element.removeEventListener('pointercancel', onPointerUp);
      element.removeEventListener('dblclick', onDoubleClick);
      element.removeEventListener('wheel', onWheel);
    };
    // `set` reads everything it needs through `latest`: the listeners are attached once per stage.
  }, [stageRef]);

  return { stage, view, fit, zoomed, eased: current.eased, dragging, actions };
}
