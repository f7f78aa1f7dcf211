import type { Readable } from 'node:stream';
import type { MediaVariant } from '../../db/schema.js';

/** Where failures go; Fastify's logger fits. */
export interface MediaLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Whether the picture storage takes writes, as the last write or probe found it. */
export type StorageHealth = { storage: 'ok' } | { storage: 'failing'; problem: string };

/** A stored file, read for an answer or an export. */
export interface StoredFile {
  body: Readable;
  /** Bytes in `body` (the range's, when a range was asked for). */
  length: number;
  /** The whole file's size. */
  size: number;
  /** Its MIME type (from the name's extension, which the server gave it from the detected format). */
  contentType?: string;
  etag?: string;
  lastModified?: Date;
  /** Set when `body` is a range of the file: `bytes a-b/size`. */
  contentRange?: string;
}

/** What a read of a stored file answers: the file, a 304, a 416, or nothing by that name. */
export type ReadResult =
  | { status: 'ok'; file: StoredFile }
  | { status: 'not-modified'; etag?: string }
  | { status: 'bad-range'; size?: number }
  | { status: 'missing' };

/**
 * Where the pictures' files live: the local media folder or an S3-compatible bucket. Names are made by the
 * server (`<id>-…`); every file is written once and never changed (a new picture is a new name).
 */
export interface MediaStorage {
  kind: 'local' | 's3';
  /**
   * Writes new files; if any write fails, the ones written are removed (or, when even that fails, left
   * to the sweeper). A full disk or an unreachable bucket is a 503 that says so.
   */
  write(files: { name: string; data: Buffer }[]): Promise<void>;
  /** Removes files; failures are logged, never thrown (the row is what counts; the sweeper retries). */
  remove(files: string[]): Promise<void>;
  /** A file's bytes (`range`: an HTTP Range header; `ifNoneMatch`: the request's, for a 304). */
  read(name: string, options?: { range?: string; ifNoneMatch?: string }): Promise<ReadResult>;
  /** Every server-named file with its last write time, in batches (the sweeper's input). */
  list(): AsyncIterable<{ name: string; modifiedMs: number }[]>;
  /** Whether storage takes writes: probed at most every 2 s, callers in between share the last answer. */
  health(): Promise<StorageHealth>;
  /** Throws (an HttpError 503 saying what fails) when the storage cannot be reached: for /api/ready. */
  check(): Promise<void>;
}

// Relative (`/media/`) unless MEDIA_PUBLIC_URL says a CDN or the bucket serves the files. One value per
// process: buildApp sets it from the config before any picture is presented.
let publicBase = '/media/';

/** MEDIA_PUBLIC_URL (ending in `/`), or undefined for the server's own `/media/`. */
export function setMediaPublicUrl(base: string | undefined): void {
  publicBase = base ?? '/media/';
}

/** Public URL of a media file: `/media/<file>` (served by the server) or under MEDIA_PUBLIC_URL. */
export const mediaUrl = (file: string) => `${publicBase}${file}`;

/** The file name in a URL mediaUrl made (with either base, so a URL saved before a move still reads). */
export function mediaFileOfUrl(url: string): string | undefined {
  const rest = url.startsWith(publicBase)
    ? url.slice(publicBase.length)
    : url.startsWith('/media/')
      ? url.slice(7)
      : '';
  return /^[A-Za-z0-9][A-Za-z0-9.-]*$/.test(rest) ? rest : undefined;
}

export const originalFileName = (id: string, ext: string) => `${id}-original.${ext}`;

/**
 * `<id>-1080.jpg`, `<id>-1080-p3.avif` (Display P3), `<id>-640-animated.webp` (every frame); for other servers,
 * `<id>-1080.png` (pixel art) and `<id>-640-animated.gif`.
 */
export const variantFileName = (id: string, variant: Pick<MediaVariant, 'width' | 'format' | 'gamut' | 'animated'>) =>
  `${id}-${variant.width}${variant.gamut === 'p3' ? '-p3' : ''}${variant.animated ? '-animated' : ''}.` +
  (variant.format === 'jpeg' ? 'jpg' : variant.format);

/** Every file name of a media row: the original and its variants. */
export const filesOf = (row: { originalFile: string; variants: MediaVariant[] }) => [
  row.originalFile,
  ...row.variants.map((variant) => variant.file),
];

/** `<id>-original.png`, `<id>-1080.jpg`, `<id>-1080-p3.avif`, `<id>-640-animated.webp`: the names the server makes. */
export const MEDIA_FILE =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-[a-z0-9]+(?:-[a-z0-9]+)*\.[a-z]+$/;
