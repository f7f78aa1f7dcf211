import { describe, expect, it } from 'vitest';
import { clampedRatio, formatBytes, largestVariantWidth } from './picture-shape';

describe('clampedRatio', () => {
  it('keeps a shape between 4:5 and 1.91:1, and stops at those limits beyond', () => {
    expect(clampedRatio({ width: 1080, height: 1080 })).toBe(1);
    expect(clampedRatio({ width: 1600, height: 1200 })).toBeCloseTo(4 / 3);
    expect(clampedRatio({ width: 1000, height: 1500 })).toBe(0.8);
    expect(clampedRatio({ width: 6000, height: 1000 })).toBe(1.91);
  });
});

describe('largestVariantWidth', () => {
  it('reads the widest w descriptor of every source', () => {
    const sources = [
      {
        type: 'image/avif' as const,
        srcset: '/media/a-320.avif 320w, /media/a-1080.avif 1080w',
        media: '(color-gamut: p3)',
      },
      { type: 'image/jpeg' as const, srcset: '/media/a-320.jpg 320w, /media/a-1200.jpg 1200w' },
    ];
    expect(largestVariantWidth({ sources })).toBe(1200);
    expect(largestVariantWidth({ sources: [] })).toBe(0);
  });
});

describe('formatBytes', () => {
  it('writes sizes as a person reads them', () => {
    expect(formatBytes(2_100_000)).toBe('2.1 MB');
    expect(formatBytes(18_400_000)).toBe('18 MB');
    expect(formatBytes(6_899)).toBe('7 kB');
    expect(formatBytes(512)).toBe('512 bytes');
  });
});
