import { describe, expect, it } from 'vitest';
import { clampView, fitScale, needsOriginal, panBy, stepScale, toggledScale, zoomTo } from './zoom';

const stage = { width: 1000, height: 800 };

describe('fitScale', () => {
  it('shrinks a large picture until the whole of it is on the stage', () => {
    expect(fitScale({ width: 4000, height: 2000 }, stage)).toBe(0.25);
    expect(fitScale({ width: 1600, height: 3200 }, stage)).toBe(0.25);
  });

  it('never blows up a small picture, except pixel art, by a whole multiple', () => {
    expect(fitScale({ width: 300, height: 200 }, stage)).toBe(1);
    expect(fitScale({ width: 64, height: 48 }, stage, true)).toBe(15);
    expect(fitScale({ width: 300, height: 200 }, stage, true)).toBe(3);
  });
});

describe('zoom and pan', () => {
  const picture = { width: 4000, height: 2000 };
  const fit = fitScale(picture, stage);

  it('keeps the pixel under the cursor where it is', () => {
    const at = { x: 200, y: -100 };
    const view = zoomTo({ scale: fit, x: 0, y: 0 }, 1, at, picture, stage, fit);
    expect(view.scale).toBe(1);
    // The point 200 px right of the centre was picture pixel 2000 + 200 / 0.25 = 2800; it still is.
    expect(2000 + (at.x - view.x) / view.scale).toBeCloseTo(2800);
    expect(1000 + (at.y - view.y) / view.scale).toBeCloseTo(600);
  });

  it('never lets the picture leave the stage, and centres it along an axis where it is smaller', () => {
    const zoomed = clampView({ scale: 1, x: 99_999, y: -99_999 }, picture, stage);
    expect(zoomed).toEqual({ scale: 1, x: 1500, y: -600 });
    expect(clampView({ scale: 0.25, x: 40, y: 40 }, picture, stage)).toEqual({ scale: 0.25, x: 0, y: 0 });
    expect(panBy({ scale: 1, x: 1400, y: 0 }, 500, 0, picture, stage).x).toBe(1500);
  });

  it('zooms no lower than the fit and no higher than 4 × the fit or 400 %', () => {
    expect(zoomTo({ scale: fit, x: 0, y: 0 }, 0.01, { x: 0, y: 0 }, picture, stage, fit).scale).toBe(fit);
    expect(zoomTo({ scale: 1, x: 0, y: 0 }, 50, { x: 0, y: 0 }, picture, stage, fit).scale).toBe(4);
  });

  it('+ and - stop on the fit and on 100 % on their way', () => {
    let scale = fit;
    const seen: number[] = [];
    while (scale < 1) {
      scale = stepScale(scale, fit, 1);
      seen.push(scale);
    }
    expect(seen.at(-1)).toBe(1);
    expect(stepScale(1, fit, 1)).toBe(1.5);
    expect(stepScale(0.3, fit, -1)).toBe(fit);
  });

  it('a double-click goes from the fit to 100 % and back', () => {
    expect(toggledScale({ scale: fit, x: 0, y: 0 }, fit)).toBe(1);
    expect(toggledScale({ scale: 1, x: 0, y: 0 }, fit)).toBe(fit);
    // A picture already shown pixel for pixel: twice that.
    expect(toggledScale({ scale: 1, x: 0, y: 0 }, 1)).toBe(2);
  });
});

describe('needsOriginal', () => {
  it('asks for the original from 100 % on', () => {
    expect(needsOriginal({ width: 1200, height: 900 }, 1, 1, 1200)).toBe(true);
    expect(needsOriginal({ width: 1200, height: 900 }, 0.8, 2, 1200)).toBe(false);
  });

  it('asks for it below 100 % only when the screen shows more than the largest variant and the original has more', () => {
    expect(needsOriginal({ width: 6000, height: 4000 }, 0.3, 1, 2048)).toBe(false);
    expect(needsOriginal({ width: 6000, height: 4000 }, 0.3, 2, 2048)).toBe(true);
  });
});
