/**
 * The viewer's zoom and pan, as plain arithmetic (PhotoSwipe's model): a scale measured against the original's
 * pixels (1 = 100 %, one pixel of the file per CSS pixel), and the offset of the picture's centre from the
 * stage's centre. The picture never drifts off the stage: along an axis where it is smaller than the stage
 * it stays centred, along one where it is larger its edges never come inside the stage's edges.
 */
export interface Size {
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface View {
  /** CSS pixels per pixel of the original. */
  scale: number;
  /** The picture's centre minus the stage's centre, in CSS pixels. */
  x: number;
  y: number;
}

/** How far past the fit and past 100 % the viewer lets one zoom. */
const MAX_OVER_FIT = 4;
const MAX_OVER_ORIGINAL = 4;
/** Each + or - multiplies or divides the scale by this. */
export const ZOOM_STEP = 1.5;

/**
 * The scale at which the whole picture fits the stage. A picture smaller than the stage is not blown up
 * (its pixels would blur), except pixel art, which is drawn at the largest whole multiple that fits: every
 * pixel of it becomes an even square.
 */
export function fitScale(picture: Size, stage: Size, pixelated = false): number {
  if (picture.width <= 0 || picture.height <= 0 || stage.width <= 0 || stage.height <= 0) return 1;
  const fit = Math.min(stage.width / picture.width, stage.height / picture.height);
  if (fit >= 1) return pixelated ? Math.floor(fit) : 1;
  return fit;
}

export function maxScale(fit: number): number {
  return Math.max(fit * MAX_OVER_FIT, MAX_OVER_ORIGINAL);
}

export function clampScale(scale: number, fit: number): number {
  return Math.min(maxScale(fit), Math.max(fit, scale));
}

/** Keeps the picture on the stage at this view's scale. */
export function clampView(view: View, picture: Size, stage: Size): View {
  const slackX = Math.max(0, (picture.width * view.scale - stage.width) / 2);
  const slackY = Math.max(0, (picture.height * view.scale - stage.height) / 2);
  return {
    scale: view.scale,
    x: Math.min(slackX, Math.max(-slackX, view.x)),
    y: Math.min(slackY, Math.max(-slackY, view.y)),
  };
}

/** The whole picture, centred. */
export function fitView(picture: Size, stage: Size, pixelated = false): View {
  return { scale: fitScale(picture, stage, pixelated), x: 0, y: 0 };
}

/**
 * Zooms to `scale` keeping the point under `at` (relative to the stage's centre) where it is: the pixel under
 * the cursor or between the fingers stays under them.
 */
export function zoomTo(view: View, scale: number, at: Point, picture: Size, stage: Size, fit: number): View {
  const next = clampScale(scale, fit);
  const ratio = next / view.scale;
  return clampView(
    { scale: next, x: at.x - (at.x - view.x) * ratio, y: at.y - (at.y - view.y) * ratio },
    picture,
    stage,
  );
}

export function panBy(view: View, dx: number, dy: number, picture: Size, stage: Size): View {
  return clampView({ scale: view.scale, x: view.x + dx, y: view.y + dy }, picture, stage);
}

/**
 * The next scale for + (direction 1) or - (-1): a step of ZOOM_STEP, stopping on the fit and on 100 % when
 * it passes them, so that a few presses land exactly on the original's pixels.
 */
export function stepScale(scale: number, fit: number, direction: 1 | -1): number {
  const next = direction > 0 ? scale * ZOOM_STEP : scale / ZOOM_STEP;
  const stops = [fit, 1].filter((stop) => Math.abs(stop - scale) > 1e-6);
  for (const stop of stops) {
    if (direction > 0 && scale < stop && next > stop) return stop;
    if (direction < 0 && scale > stop && next < stop) return stop;
  }
  return clampScale(next, fit);
}

export function isZoomed(view: View, fit: number): boolean {
  return view.scale > fit * 1.001;
}

/**
 * Double-click or double-tap: from the fit to 100 % (or, for a picture the fit already shows pixel for pixel,
 * to twice that); from anywhere else back to the fit.
 */
export function toggledScale(view: View, fit: number): number {
  if (isZoomed(view, fit)) return fit;
  return fit < 1 ? 1 : Math.min(maxScale(fit), fit * 2);
}

/**
 * Whether the viewer must show the original file rather than a variant: from 100 % on (a variant is a
 * re-encoded copy, and at 100 % one looks at the file's own pixels), or as soon as the screen would show
 * more device pixels than the largest variant holds while the original holds more.
 */
export function needsOriginal(
  picture: Size,
  scale: number,
  devicePixelRatio: number,
  largestVariantWidth: number,
): boolean {
  if (scale >= 0.999) return true;
  const shown = picture.width * scale * devicePixelRatio;
  return largestVariantWidth < picture.width && shown > largestVariantWidth;
}
