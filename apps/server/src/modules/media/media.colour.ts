import { hash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import { pngChunk } from './media.metadata.js';

/**
 * Colour questions about an upload, answered by the same colour engine (lcms, inside libvips) that
 * makes the variants, so that "wide" here means "the P3 variant would show more than the sRGB one".
 */

/** Display P3 → sRGB, both linear and D65 (the primaries differ, the white point does not). */
const P3_TO_SRGB = [
  [1.2249401, -0.2249404, 0],
  [-0.0420569, 1.0420571, 0],
  [-0.0196376, -0.0786361, 1.0982735],
] as const;

const toLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);

/** Linear sRGB of a Display P3 colour given as fractions 0–1 (its components may fall outside 0–1). */
export function p3ToLinearSrgb(rgb: readonly [number, number, number]): [number, number, number] {
  const linear = rgb.map(toLinear);
  return P3_TO_SRGB.map((row) => row[0] * linear[0]! + row[1] * linear[1]! + row[2] * linear[2]!) as [
    number,
    number,
    number,
  ];
}

// A primary counts as beyond sRGB when it lands clearly outside it, not by the rounding of 16 bits.
const OUTSIDE = 0.01;

const cache = new Map<string, boolean>();
const CACHE_SIZE = 32;

/**
 * Whether an embedded ICC profile's gamut exceeds sRGB (Display P3, Adobe RGB, ProPhoto, Rec. 2020, a
 * wide-gamut monitor's profile): its pure red, green and blue are converted into Display P3 and any of
 * them that lands outside sRGB says so. Matrix and table-based RGB profiles alike; a profile libvips
 * cannot use (CMYK, grey, damaged) is not wide. Cameras and phones reuse a few profiles: answers are
 * kept for the last 32.
 */
export async function isWideGamut(icc: Buffer): Promise<boolean> {
  const key = hash('sha256', icc, 'hex');
  const known = cache.get(key);
  if (known !== undefined) return known;
  let wide = false;
  try {
    wide = await primariesBeyondSrgb(icc);
  } catch {
    wide = false;
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, wide);
  return wide;
}

// Red, green, blue, and an orange that any wide profile moves when converting to sRGB.
const PROBE = Buffer.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 200, 100, 50]);

async function primariesBeyondSrgb(icc: Buffer): Promise<boolean> {
  const png = await sharp(PROBE, { raw: { width: 4, height: 1, channels: 3 } })
    .png()
    .toBuffer();
  const iccp = pngChunk('iCCP', Buffer.concat([Buffer.from('icc\0\0', 'latin1'), deflateSync(icc)]));
  const IHDR_END = 8 + 25; // the signature, then the 13-byte IHDR chunk
  const tagged = Buffer.concat([png.subarray(0, IHDR_END), iccp, png.subarray(IHDR_END)]);
  // libvips ignores a profile it cannot use (with a warning only): the orange then comes out unchanged.
  const srgb = await sharp(tagged).raw().toBuffer();
  if (srgb.subarray(9, 12).equals(PROBE.subarray(9, 12))) return false;
  const { data } = await toP3(sharp(tagged)).toBuffer({ resolveWithObject: true });
  const values = new Uint16Array(data.buffer, data.byteOffset, data.length / 2);
  return [0, 1, 2].some((i) => {
    const p3: [number, number, number] = [
      values[i * 3]! / 65535,
      values[i * 3 + 1]! / 65535,
      values[i * 3 + 2]! / 65535,
    ];
    return p3ToLinearSrgb(p3).some((v) => v < -OUTSIDE || v > 1 + OUTSIDE);
  });
}

/**
 * A pipeline that converts from the embedded profile into Display P3 at 16 bits, as raw pixels. sharp
 * processes 16-bit RGB in Display P3 and 8-bit RGB in sRGB: the 16-bit pipeline is what keeps colours
 * beyond sRGB from being clipped on the way.
 */
export function toP3(pipeline: Sharp): Sharp {
  return pipeline.pipelineColourspace('rgb16').toColourspace('rgb16').raw({ depth: 'ushort' });
}

/**
 * How many of these 16-bit Display P3 pixels (RGB or RGBA) lie outside sRGB by more than two 8-bit
 * levels: a P3 variant of a picture with none would look exactly like its sRGB one.
 */
export function countBeyondSrgb(pixels: Uint16Array, channels: number): number {
  // Two 8-bit levels beyond black and white, in linear light (sRGB's curve: 2/255 / 12.92, and the
  // power segment at 1 + 2/255), so that the loop over millions of pixels needs no power function.
  const low = -toLinear(2 / 255);
  const high = ((1 + 2 / 255 + 0.055) / 1.055) ** 2.4;
  const linear = new Float32Array(65536);
  for (let i = 0; i < 65536; i += 1) linear[i] = toLinear(i / 65535);
  let count = 0;
  for (let i = 0; i + 2 < pixels.length; i += channels) {
    const r = linear[pixels[i]!]!;
    const g = linear[pixels[i + 1]!]!;
    const b = linear[pixels[i + 2]!]!;
    for (const row of P3_TO_SRGB) {
      const v = row[0] * r + row[1] * g + row[2] * b;
      if (v < low || v > high) {
        count += 1;
        break;
      }
    }
  }
  return count;
}
