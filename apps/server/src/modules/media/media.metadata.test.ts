import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isWideGamut } from './media.colour.js';
import { cleanFileName, contentDisposition } from './media.download.js';
import { exifIsOrientationOnly, orientationOnlyExif, stripMetadata, UnreadableStructure } from './media.metadata.js';

/** The pure parts of faithful pictures: block-level metadata removal, profile gamut, download names. */

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => readFile(path.join(FIXTURES, name));

const segment = (marker: number, payload: Buffer | string) => {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'latin1');
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([header, body]);
};

/** The bytes from the first SOS marker to EOI: the compressed picture. */
const scanData = (jpeg: Buffer) =>
  jpeg.subarray(jpeg.indexOf(Buffer.from([0xff, 0xda])), jpeg.lastIndexOf(Buffer.from([0xff, 0xd9])) + 2);

describe('stripMetadata: JPEG', () => {
  it('drops EXIF, XMP, IPTC, comments, MPF and appended data, and keeps JFIF, ICC, Adobe and the scans byte for byte', async () => {
    const photo = await sharp({
      create: {
        width: 64,
        height: 48,
        channels: 3,
        background: '#888',
        noise: { type: 'gaussian', mean: 128, sigma: 50 },
      },
    })
      .withIccProfile('p3')
      .jpeg({ progressive: true })
      .toBuffer();
    const jfifEnd = 4 + photo.readUInt16BE(4);
    const extra = [
      segment(0xe1, 'Exif\0\0MM\0*\0\0\0\x08\0\0\0\0\0\0'),
      segment(0xe1, 'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>Secret</x:xmpmeta>'),
      segment(0xed, 'Photoshop 3.0\x008BIM Secret caption'),
      segment(0xe2, 'MPF\0MM\0*'),
      segment(0xee, 'Adobe\0\x64\0\0\0\0\x01'),
      segment(0xfe, 'Secret comment'),
    ];
    const uploaded = Buffer.concat([
      photo.subarray(0, jfifEnd),
      ...extra,
      photo.subarray(jfifEnd),
      Buffer.from('SecretTrailer'),
    ]);
    const { data, removed } = stripMetadata(uploaded, 'jpg', 1);
    expect(removed).toEqual([
      'APP1 Exif',
      'APP1 XMP',
      'APP13 IPTC',
      'APP2 MPF',
      'COM',
      '13 bytes after the end of the image',
    ]);
    expect(data.includes('Secret')).toBe(false);
    expect(data.includes('Adobe')).toBe(true);
    expect(data.subarray(0, jfifEnd).equals(photo.subarray(0, jfifEnd))).toBe(true); // SOI, JFIF first
    expect(scanData(data).equals(scanData(photo))).toBe(true);
    const [a, b] = await Promise.all([sharp(photo).raw().toBuffer(), sharp(data).raw().toBuffer()]);
    expect(a.equals(b)).toBe(true);
    expect((await sharp(data).metadata()).icc!.equals((await sharp(photo).metadata()).icc!)).toBe(true);
  });

  it('keeps an orientation other than 1 in a minimal EXIF after JFIF, and nothing when it is 1', async () => {
    const oriented = await fixture('oriented-p3-gps.jpg');
    const kept = stripMetadata(oriented, 'jpg', 6).data;
    expect((await sharp(kept).metadata()).orientation).toBe(6);
    const exif = (await sharp(kept).metadata()).exif!;
    expect(exifIsOrientationOnly(exif)).toBe(true);
    expect(exif.length).toBe(6 + orientationOnlyExif(6).length);
    const dropped = stripMetadata(oriented, 'jpg', 1).data;
    expect((await sharp(dropped).metadata()).exif).toBeUndefined();
  });

  it('hands back the very same bytes when there is nothing to remove', async () => {
    const clean = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123' } })
      .jpeg()
      .toBuffer();
    const result = stripMetadata(clean, 'jpg', undefined);
    expect(result.removed).toEqual([]);
    expect(result.data).toBe(clean);
  });

  it('says when it cannot follow a structure, for the caller to re-encode', async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123' } })
      .jpeg()
      .toBuffer();
    expect(() => stripMetadata(jpeg.subarray(0, jpeg.length - 2), 'jpg', 1)).toThrow(UnreadableStructure);
    expect(() => stripMetadata(Buffer.from('not a png at all'), 'png', 1)).toThrow(UnreadableStructure);
  });
});

describe('stripMetadata: PNG, WebP, GIF, AVIF', () => {
  it('PNG: drops text, time and EXIF chunks, keeps iCCP and the pixels, an orientation in a minimal eXIf', async () => {
    const { data, removed } = stripMetadata(await fixture('private.png'), 'png', 6);
    expect(removed).toEqual(['tEXt', 'tIME', 'eXIf', 'zTXt']);
    const metadata = await sharp(data).metadata();
    expect([metadata.orientation, metadata.comments, metadata.xmp, metadata.hasProfile]).toEqual([
      6,
      undefined,
      undefined,
      true,
    ]);
  });

  it('WebP: drops the EXIF and XMP chunks and corrects the VP8X flags and the RIFF size', async () => {
    const uploaded = await fixture('private.webp');
    expect(uploaded[20]! & 0x0c).toBe(0x0c); // VP8X flags: EXIF and XMP announced
    const { data, removed } = stripMetadata(uploaded, 'webp', 1);
    expect(removed).toEqual(['EXIF', 'XMP']);
    expect(data[20]! & 0x0c).toBe(0);
    expect(data[20]! & 0x20).toBe(0x20); // the ICC profile is still announced, and there
    expect(data.readUInt32LE(4)).toBe(data.length - 8);
    const oriented = stripMetadata(uploaded, 'webp', 6).data;
    expect(oriented[20]! & 0x0c).toBe(0x08);
    expect((await sharp(oriented).metadata()).orientation).toBe(6);
  });

  it('GIF: drops comments and XMP, keeps the looping block', async () => {
    const { data, removed } = stripMetadata(await fixture('private.gif'), 'gif');
    expect(removed).toEqual(['comment', 'application XMP DataXMP']);
    expect(data.includes('Secret')).toBe(false);
    const animated = await fixture('animated.gif');
    expect(stripMetadata(animated, 'gif').data).toBe(animated);
  });

  it('AVIF: overwrites the EXIF and XMP items in place, at the same length', async () => {
    const uploaded = await fixture('private.avif');
    const { data, removed } = stripMetadata(uploaded, 'avif');
    expect(removed).toEqual(['Exif', 'XMP']);
    expect(data.length).toBe(uploaded.length);
    expect(data.includes('Secret')).toBe(false);
    const metadata = await sharp(data).metadata();
    expect(exifIsOrientationOnly(metadata.exif!)).toBe(true);
  });
});

describe('isWideGamut', () => {
  const profileOf = async (icc: 'p3' | 'srgb') =>
    (
      await sharp(
        await sharp({ create: { width: 1, height: 1, channels: 3, background: '#888' } })
          .withIccProfile(icc)
          .png()
          .toBuffer(),
      ).metadata()
    ).icc!;

  it('is true of Display P3, Adobe RGB, ProPhoto and Rec. 2020, false of sRGB and of anything unusable', async () => {
    expect(await isWideGamut(await profileOf('p3'))).toBe(true);
    for (const name of ['adobe-rgb.icc', 'prophoto.icc', 'rec2020.icc'])
      expect(await isWideGamut(await fixture(name)), name).toBe(true);
    expect(await isWideGamut(await profileOf('srgb'))).toBe(false);
    // sRGB's primaries with another tone curve: no wider.
    expect(await isWideGamut(await fixture('srgb-gamma.icc'))).toBe(false);
    expect(await isWideGamut(Buffer.from('not a profile'))).toBe(false);
  });
});

describe('download names', () => {
  it.each([
    ['holiday.JPG', 'jpg', 'holiday.jpg'],
    ['scan.png', 'jpg', 'scan.jpg'],
    ['notes.final', 'png', 'notes.final.png'],
    ['C:\\Users\\ana\\Desktop\\sketch.jpeg', 'jpg', 'sketch.jpeg'],
    ['../../../etc/passwd', 'gif', 'passwd.gif'],
    ['   ', 'webp', 'picture.webp'],
    [undefined, 'avif', 'picture.avif'],
    ['exe.gpj\u202e.png', 'png', 'exe.gpj.png'],
    ['a<b>c:d|e?f*.png', 'png', 'a_b_c_d_e_f_.png'],
    ['tab\there\nnewline.png', 'png', 'tabherenewline.png'],
    [`${'x'.repeat(300)}.png`, 'png', `${'x'.repeat(146)}.png`],
  ] as const)('cleans %j as %s to %j', (name, ext, expected) => {
    expect(cleanFileName(name, ext)).toBe(expected);
  });

  it('writes Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266, RFC 5987)', () => {
    expect(contentDisposition('Nuit étoilée (v2).png', 'inline')).toBe(
      `inline; filename="Nuit etoilee (v2).png"; filename*=UTF-8''Nuit%20%C3%A9toil%C3%A9e%20%28v2%29.png`,
    );
    expect(contentDisposition('夜 100%.jpg', 'attachment')).toBe(
      `attachment; filename="_ 100_.jpg"; filename*=UTF-8''%E5%A4%9C%20100%25.jpg`,
    );
  });
});
