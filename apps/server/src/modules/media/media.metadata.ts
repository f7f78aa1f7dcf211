import { crc32 } from 'node:zlib';

/**
 * Personal metadata out of an original, without touching a pixel: the file is cut into its blocks
 * (JPEG segments, PNG and WebP chunks, GIF blocks, AVIF items) and the blocks that carry metadata are
 * left out; the compressed picture data and the colour profile are copied byte for byte. A file with
 * nothing to remove comes back as the very same bytes.
 *
 * What goes: EXIF (GPS, camera, serial numbers, dates), XMP, IPTC, comments and text, thumbnails and
 * pictures appended after the end of the image (MPF, motion photos). What stays: the ICC profile and
 * what decoding needs (JPEG tables, Adobe colour transform, PNG gamma and chromaticities, transparency,
 * animation). EXIF also carries the orientation, which browsers apply to JPEG: when it is not the
 * default, a minimal EXIF block holding only the orientation takes the old one's place, so the original
 * displays the way it was taken.
 */
export interface Stripped {
  data: Buffer;
  /** What was left out, for logs and tests ("APP1 Exif", "tEXt", …); empty when `data` is the input. */
  removed: string[];
}

export type StripFormat = 'jpg' | 'png' | 'webp' | 'gif' | 'avif';

/** The file's structure could not be followed: the caller falls back to re-encoding. */
export class UnreadableStructure extends Error {}

const fail = (what: string): never => {
  throw new UnreadableStructure(what);
};

const ascii = (data: Buffer, start: number, end: number) => data.toString('latin1', start, end);

/** Orientation values 2–8 mean the stored pixels must be turned or flipped to display upright. */
const needsOrientation = (orientation: number | undefined): orientation is number =>
  orientation !== undefined && orientation >= 2 && orientation <= 8;

/**
 * A TIFF structure (what EXIF is) with one entry, the orientation: 26 bytes, big-endian, no GPS or
 * camera IFD, no thumbnail.
 */
export function orientationOnlyExif(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14); // one value
  tiff.writeUInt16BE(orientation, 18);
  // Bytes 22–25: no next IFD (no thumbnail).
  return tiff;
}

/**
 * Whether EXIF data (with or without the "Exif\0\0" prefix JPEG uses) holds nothing but an
 * orientation: the check run on every stripped original before it is stored.
 */
export function exifIsOrientationOnly(exif: Buffer): boolean {
  const tiff = ascii(exif, 0, 6) === 'Exif\0\0' ? exif.subarray(6) : exif;
  if (tiff.length < 14) return tiff.every((byte) => byte === 0);
  const order = ascii(tiff, 0, 2);
  if (order !== 'MM' && order !== 'II') return false;
  const u16 = (at: number) => (order === 'MM' ? tiff.readUInt16BE(at) : tiff.readUInt16LE(at));
  const u32 = (at: number) => (order === 'MM' ? tiff.readUInt32BE(at) : tiff.readUInt32LE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return false;
  const count = u16(ifd);
  if (ifd + 2 + count * 12 + 4 > tiff.length) return false;
  for (let i = 0; i < count; i += 1) if (u16(ifd + 2 + i * 12) !== 0x0112) return false;
  return u32(ifd + 2 + count * 12) === 0;
}

export function stripMetadata(data: Buffer, format: StripFormat, orientation?: number): Stripped {
  switch (format) {
    case 'jpg':
      return stripJpeg(data, orientation);
    case 'png':
      return stripPng(data, orientation);
    case 'webp':
      return stripWebp(data, orientation);
    case 'gif':
      return stripGif(data);
    case 'avif':
      return blankAvifMetadata(data);
  }
}

const unchanged = (data: Buffer): Stripped => ({ data, removed: [] });

// --- JPEG -------------------------------------------------------------------------------------------

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP1 = 0xe1;
const APP2 = 0xe2;
const APP14 = 0xee;
const COM = 0xfe;

const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7;

function jpegSegmentKept(marker: number, segment: Buffer): boolean {
  const id = (text: string) => ascii(segment, 4, 4 + text.length) === text;
  if (marker === APP0) return id('JFIF\0'); // JFXX holds a thumbnail
  if (marker === APP2) return id('ICC_PROFILE\0'); // not MPF, which points at appended pictures
  if (marker === APP14) return id('Adobe'); // the colour transform a decoder needs
  if (marker >= APP0 && marker <= 0xef) return false; // APP1 Exif/XMP, APP13 IPTC, vendors' blocks
  return marker !== COM;
}

const JPEG_LABELS: Record<string, string> = {
  Exif: 'Exif',
  'http://ns.adobe.com/xap/1.0/': 'XMP',
  'http://ns.adobe.com/xmp/extension/': 'XMP (extended)',
  'Photoshop 3.0': 'IPTC',
};

function jpegSegmentName(marker: number, segment: Buffer): string {
  if (marker === COM) return 'COM';
  const end = segment.indexOf(0, 4);
  const label = ascii(segment, 4, Math.min(end === -1 ? segment.length : end, 4 + 40));
  const known = JPEG_LABELS[label] ?? label.replace(/[^\x20-\x7e]/g, '?');
  return `APP${marker - APP0}${known ? ` ${known}` : ''}`;
}

/**
 * Walks the segments up to the end of the image: header segments are kept or dropped one by one; a
 * scan (SOS) is copied with its entropy-coded data up to the next marker; anything after EOI goes.
 */
function stripJpeg(data: Buffer, orientation: number | undefined): Stripped {
  if (data[0] !== 0xff || data[1] !== SOI) fail('no JPEG start of image');
  const removed: string[] = [];
  const leading: Buffer[] = []; // JFIF, which must stay first
  const rest: Buffer[] = [];
  let hadExif = false;
  let at = 2;
  let ended = false;
  while (at < data.length) {
    if (data[at] !== 0xff) fail('a JPEG segment does not start with a marker');
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === EOI) {
      rest.push(data.subarray(at, at + 2));
      at += 2;
      ended = true;
      break;
    }
    if (isRestart(marker) || marker === 0x01) {
      rest.push(data.subarray(at, at + 2));
      at += 2;
      continue;
    }
    if (at + 4 > data.length) fail('a JPEG segment is cut off');
    const end = at + 2 + data.readUInt16BE(at + 2);
    if (end > data.length) fail('a JPEG segment is cut off');
    const segment = data.subarray(at, end);
    if (marker === SOS) {
      // Entropy-coded data: 0xFF is followed by 0x00 (a stuffed byte) or a restart marker inside it.
      let scan = end;
      for (;;) {
        scan = data.indexOf(0xff, scan);
        if (scan === -1 || scan + 1 >= data.length) {
          scan = data.length;
          break;
        }
        const next = data[scan + 1]!;
        if (next !== 0x00 && !isRestart(next)) break;
        scan += 2;
      }
      rest.push(data.subarray(at, scan));
      at = scan;
      continue;
    }
    if (jpegSegmentKept(marker, segment)) {
      (marker === APP0 && rest.length === 0 ? leading : rest).push(segment);
    } else {
      if (marker === APP1 && ascii(segment, 4, 10) === 'Exif\0\0') hadExif = true;
      removed.push(jpegSegmentName(marker, segment));
    }
    at = end;
  }
  if (!ended) fail('the JPEG has no end of image');
  if (at < data.length) removed.push(`${data.length - at} bytes after the end of the image`);
  if (removed.length === 0) return unchanged(data);

  const exif: Buffer[] = [];
  if (hadExif && needsOrientation(orientation)) {
    const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), orientationOnlyExif(orientation)]);
    const header = Buffer.from([0xff, APP1, 0, 0]);
    header.writeUInt16BE(payload.length + 2, 2);
    exif.push(header, payload);
  }
  return { data: Buffer.concat([data.subarray(0, 2), ...leading, ...exif, ...rest]), removed };
}

// --- PNG --------------------------------------------------------------------------------------------

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Ancillary chunks that shape how the picture looks (colour, transparency, pixel size, animation);
 * every other ancillary chunk (eXIf, tEXt, zTXt, iTXt, tIME, and private ones such as C2PA's caBX)
 * is left out. Critical chunks (IHDR, PLTE, IDAT, IEND) always stay.
 */
const PNG_KEPT = new Set([
  'tRNS',
  'cHRM',
  'gAMA',
  'iCCP',
  'sBIT',
  'sRGB',
  'cICP',
  'mDCV',
  'mDCv',
  'cLLI',
  'cLLi',
  'bKGD',
  'hIST',
  'pHYs',
  'sPLT',
  'acTL',
  'fcTL',
  'fdAT',
]);

export function pngChunk(type: string, payload: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + payload.length);
  chunk.writeUInt32BE(payload.length, 0);
  chunk.write(type, 4, 'latin1');
  payload.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + payload.length)), 8 + payload.length);
  return chunk;
}

function stripPng(data: Buffer, orientation: number | undefined): Stripped {
  if (!data.subarray(0, 8).equals(PNG_SIGNATURE)) fail('no PNG signature');
  const removed: string[] = [];
  const kept: Buffer[] = [data.subarray(0, 8)];
  let hadExif = false;
  let exifAt: number | undefined; // where the orientation-only eXIf goes: before the first IDAT
  let at = 8;
  let ended = false;
  while (at + 12 <= data.length) {
    const end = at + 12 + data.readUInt32BE(at);
    if (end > data.length) fail('a PNG chunk is cut off');
    const type = ascii(data, at + 4, at + 8);
    const critical = (data[at + 4]! & 0x20) === 0;
    if (type === 'IDAT' && exifAt === undefined) exifAt = kept.length;
    if (critical || PNG_KEPT.has(type)) {
      kept.push(data.subarray(at, end));
    } else {
      if (type === 'eXIf') hadExif = true;
      removed.push(type);
    }
    at = end;
    if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  if (!ended) fail('the PNG has no IEND chunk');
  if (at < data.length) removed.push(`${data.length - at} bytes after IEND`);
  if (removed.length === 0) return unchanged(data);
  if (hadExif && needsOrientation(orientation)) {
    kept.splice(exifAt ?? kept.length - 1, 0, pngChunk('eXIf', orientationOnlyExif(orientation)));
  }
  return { data: Buffer.concat(kept), removed };
}

// --- WebP -------------------------------------------------------------------------------------------

/** Chunks of the picture itself; EXIF, XMP and unknown chunks are left out. */
const WEBP_KEPT = new Set(['VP8X', 'ICCP', 'ANIM', 'ANMF', 'ALPH', 'VP8 ', 'VP8L']);
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

function riffChunk(type: string, payload: Buffer): Buffer {
  const chunk = Buffer.alloc(8 + payload.length + (payload.length % 2));
  chunk.write(type, 0, 'latin1');
  chunk.writeUInt32LE(payload.length, 4);
  payload.copy(chunk, 8);
  return chunk;
}

function stripWebp(data: Buffer, orientation: number | undefined): Stripped {
  if (ascii(data, 0, 4) !== 'RIFF' || ascii(data, 8, 12) !== 'WEBP') fail('no RIFF WEBP header');
  const riffEnd = Math.min(data.length, 8 + data.readUInt32LE(4));
  const removed: string[] = [];
  const kept: Buffer[] = [];
  let hadExif = false;
  let at = 12;
  while (at + 8 <= riffEnd) {
    const size = data.readUInt32LE(at + 4);
    const end = at + 8 + size + (size % 2);
    if (at + 8 + size > riffEnd) fail('a WebP chunk is cut off');
    const type = ascii(data, at, at + 4);
    if (WEBP_KEPT.has(type)) {
      kept.push(data.subarray(at, Math.min(end, riffEnd)));
    } else {
      if (type === 'EXIF') hadExif = true;
      removed.push(type.trim());
    }
    at = end;
  }
  if (data.length > riffEnd) removed.push(`${data.length - riffEnd} bytes after the RIFF chunk`);
  if (removed.length === 0) return unchanged(data);

  const header = kept[0];
  const keepExif = hadExif && needsOrientation(orientation);
  if (header && ascii(header, 0, 4) === 'VP8X') {
    // The extended header says which chunks follow: it must not announce the ones taken out.
    const flags = Buffer.from(header);
    flags[8] = (flags[8]! & ~(VP8X_EXIF | VP8X_XMP)) | (keepExif ? VP8X_EXIF : 0);
    kept[0] = flags;
    if (keepExif) kept.push(riffChunk('EXIF', orientationOnlyExif(orientation!)));
  }
  const body = Buffer.concat(kept);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + body.length, 4);
  riff.write('WEBP', 8, 'latin1');
  return { data: Buffer.concat([riff, body]), removed };
}

// --- GIF --------------------------------------------------------------------------------------------

/** Application extensions that drive playback or colour; XMP and the others are left out. */
const GIF_APPLICATIONS_KEPT = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0', 'ICCRGBG1012']);

function stripGif(data: Buffer): Stripped {
  const header = ascii(data, 0, 6);
  if (header !== 'GIF87a' && header !== 'GIF89a') fail('no GIF header');
  const removed: string[] = [];
  const kept: Buffer[] = [];
  const colourTable = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  /** The end of a run of data sub-blocks starting at `at` (after its terminator). */
  const subBlocksEnd = (from: number) => {
    let at = from;
    while (at < data.length && data[at] !== 0) at += 1 + data[at]!;
    if (at >= data.length) fail('GIF data sub-blocks are cut off');
    return at + 1;
  };
  let at = 13 + colourTable(data[10]!);
  if (at > data.length) fail('the GIF header is cut off');
  kept.push(data.subarray(0, at));
  let ended = false;
  while (at < data.length) {
    const introducer = data[at]!;
    if (introducer === 0x3b) {
      kept.push(data.subarray(at, at + 1));
      at += 1;
      ended = true;
      break;
    }
    if (introducer === 0x2c) {
      // An image: its descriptor, local colour table, LZW code size and data, all kept.
      const flags = data[at + 9]!;
      const end = subBlocksEnd(at + 10 + colourTable(flags) + 1);
      kept.push(data.subarray(at, end));
      at = end;
      continue;
    }
    if (introducer !== 0x21) fail('an unknown GIF block');
    const label = data[at + 1]!;
    const end = subBlocksEnd(at + 2);
    const block = data.subarray(at, end);
    if (label === 0xfe) {
      removed.push('comment');
    } else if (label === 0xff) {
      const application = data[at + 2] === 11 ? ascii(data, at + 3, at + 14) : '';
      if (GIF_APPLICATIONS_KEPT.has(application)) kept.push(block);
      else removed.push(`application ${application.replace(/[^\x20-\x7e]/g, '?')}`);
    } else {
      kept.push(block); // graphic control (timing, transparency), plain text
    }
    at = end;
  }
  if (!ended) fail('the GIF has no trailer');
  if (at < data.length) removed.push(`${data.length - at} bytes after the trailer`);
  return removed.length === 0 ? unchanged(data) : { data: Buffer.concat(kept), removed };
}

// --- AVIF -------------------------------------------------------------------------------------------

interface Box {
  type: string;
  /** Where the box's content starts (after its size and type). */
  body: number;
  end: number;
}

function childBoxes(data: Buffer, start: number, end: number): Box[] {
  const boxes: Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    let size = data.readUInt32BE(at);
    let body = at + 8;
    if (size === 1) {
      if (at + 16 > end) fail('an AVIF box is cut off');
      size = Number(data.readBigUInt64BE(at + 8));
      body = at + 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < body - at || at + size > end) fail('an AVIF box is cut off');
    boxes.push({ type: ascii(data, at + 4, at + 8), body, end: at + size });
    at += size;
  }
  return boxes;
}

/** Reads an unsigned integer of 0, 4 or 8 bytes, as ISO BMFF field sizes go. */
function readSized(data: Buffer, at: number, size: number): number {
  if (size === 0) return 0;
  if (size === 4) return data.readUInt32BE(at);
  if (size === 8) return Number(data.readBigUInt64BE(at));
  return fail(`an AVIF field of ${size} bytes`);
}

const EMPTY_XMP = '<x:xmpmeta xmlns:x="adobe:ns:meta/"/>';

/** An XMP packet this file blanked: the empty packet (or as much of it as fitted) and spaces. */
export const isBlankXmp = (xmp: Buffer) => EMPTY_XMP.startsWith(xmp.toString('latin1').replace(/[\s\0]+$/, ''));
/** A TIFF header whose first IFD has no entries and no next IFD. */
const EMPTY_TIFF = Buffer.from('4d4d002a000000080000' + '00000000', 'hex');

/**
 * AVIF keeps EXIF and XMP as items of its `meta` box, located by offsets that other boxes hold.
 * Removing them would mean rewriting those offsets; instead each one is overwritten where it lies,
 * at the same length: the EXIF item becomes an empty EXIF structure, the XMP item an empty XMP packet
 * padded with spaces (as XMP allows). Nothing moves, so the image data stays byte for byte. (AVIF's
 * orientation lives in its own boxes, irot and imir, which are kept.)
 */
function blankAvifMetadata(data: Buffer): Stripped {
  const meta = childBoxes(data, 0, data.length).find((box) => box.type === 'meta');
  if (!meta) return unchanged(data);
  const children = childBoxes(data, meta.body + 4, meta.end); // meta is a full box: version and flags first
  const iinf = children.find((box) => box.type === 'iinf');
  const iloc = children.find((box) => box.type === 'iloc');
  const idat = children.find((box) => box.type === 'idat');
  if (!iinf) return unchanged(data);
  if (!iloc) return fail('AVIF items without locations');

  const targets = new Map<number, 'Exif' | 'XMP'>();
  const iinfVersion = data[iinf.body]!;
  const entriesAt = iinf.body + 4 + (iinfVersion === 0 ? 2 : 4);
  for (const infe of childBoxes(data, entriesAt, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const version = data[infe.body]!;
    if (version < 2) continue; // no item type before version 2
    let at = infe.body + 4;
    const id = version === 2 ? data.readUInt16BE(at) : data.readUInt32BE(at);
    at += (version === 2 ? 2 : 4) + 2; // item id, protection index
    const itemType = ascii(data, at, at + 4);
    at += 4;
    const nameEnd = data.indexOf(0, at);
    if (itemType === 'Exif') targets.set(id, 'Exif');
    if (itemType === 'mime' && nameEnd !== -1 && nameEnd < infe.end) {
      const typeEnd = data.indexOf(0, nameEnd + 1);
      const contentType = ascii(data, nameEnd + 1, typeEnd === -1 ? infe.end : Math.min(typeEnd, infe.end));
      if (contentType === 'application/rdf+xml') targets.set(id, 'XMP');
    }
  }
  if (targets.size === 0) return unchanged(data);

  const out = Buffer.from(data);
  const removed: string[] = [];
  const version = data[iloc.body]!;
  let at = iloc.body + 4;
  const offsetSize = data[at]! >> 4;
  const lengthSize = data[at]! & 0x0f;
  const baseOffsetSize = data[at + 1]! >> 4;
  const indexSize = version === 1 || version === 2 ? data[at + 1]! & 0x0f : 0;
  at += 2;
  const itemCount = version < 2 ? data.readUInt16BE(at) : data.readUInt32BE(at);
  at += version < 2 ? 2 : 4;
  for (let i = 0; i < itemCount; i += 1) {
    if (at + 8 > iloc.end) fail('the AVIF item locations are cut off');
    const id = version < 2 ? data.readUInt16BE(at) : data.readUInt32BE(at);
    at += version < 2 ? 2 : 4;
    let construction = 0;
    if (version === 1 || version === 2) {
      construction = data.readUInt16BE(at) & 0x0f;
      at += 2;
    }
    const dataReference = data.readUInt16BE(at);
    at += 2;
    const baseOffset = readSized(data, at, baseOffsetSize);
    at += baseOffsetSize;
    const extentCount = data.readUInt16BE(at);
    at += 2;
    const extents: { start: number; length: number }[] = [];
    for (let e = 0; e < extentCount; e += 1) {
      at += indexSize;
      const offset = readSized(data, at, offsetSize);
      at += offsetSize;
      const length = readSized(data, at, lengthSize);
      at += lengthSize;
      extents.push({ start: baseOffset + offset, length });
    }
    const kind = targets.get(id);
    if (!kind) continue;
    if (dataReference !== 0 || extents.some((extent) => extent.length === 0)) fail('an AVIF item elsewhere');
    // Construction 0: offsets in the file; 1: offsets in the idat box.
    const origin = construction === 0 ? 0 : construction === 1 && idat ? idat.body : fail('an AVIF item construction');
    const total = extents.reduce((sum, extent) => sum + extent.length, 0);
    const blank = Buffer.alloc(total, kind === 'XMP' ? 0x20 : 0);
    if (kind === 'XMP') blank.write(EMPTY_XMP.slice(0, total), 0, 'latin1');
    // EXIF items start with a 4-byte offset to the TIFF header: 0, then a TIFF structure with no entries.
    else if (total >= 4 + EMPTY_TIFF.length) EMPTY_TIFF.copy(blank, 4);
    let written = 0;
    for (const extent of extents) {
      const start = origin + extent.start;
      if (start + extent.length > (construction === 1 ? idat!.end : out.length)) fail('an AVIF item out of bounds');
      blank.copy(out, start, written, written + extent.length);
      written += extent.length;
    }
    removed.push(kind);
  }
  return removed.length === 0 ? unchanged(data) : { data: out, removed };
}
