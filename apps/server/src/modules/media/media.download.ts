import path from 'node:path';

/** What Download saves a picture as, and the header that says so. */

type Ext = 'jpg' | 'png' | 'webp' | 'avif' | 'gif';

/** The MIME type of a stored file, from the extension the server gave it (its detected format). */
export const TYPE_OF_EXT: Record<Ext, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};

/** Extensions people give each format; a name with one of another format's gets the right one. */
const EXTENSIONS: Record<Ext, readonly string[]> = {
  jpg: ['jpg', 'jpeg', 'jpe', 'jfif'],
  png: ['png'],
  webp: ['webp'],
  avif: ['avif'],
  gif: ['gif'],
};
const IMAGE_EXTENSIONS = new Set([...Object.values(EXTENSIONS).flat(), 'heic', 'heif', 'tif', 'tiff', 'bmp', 'svg']);

const NAME_MAX = 150;

export const extOf = (file: string): Ext => path.extname(file).slice(1) as Ext;

/**
 * The uploaded file name made safe to store and to hand back: its last path segment only, without
 * control or invisible formatting characters (a right-to-left override can make `gpj.exe` read as
 * `exe.jpg`), without characters file systems refuse, at most 150 characters, ending in the extension
 * of the format the content really is ("scan.png" holding a JPEG becomes "scan.jpg"). Empty or
 * nothing left: "picture.<ext>".
 */
export function cleanFileName(name: string | undefined, ext: Ext): string {
  const base = (name ?? '').split(/[/\\]/).pop()!;
  let clean = base
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  const dot = clean.lastIndexOf('.');
  const given = dot > 0 ? clean.slice(dot + 1).toLowerCase() : '';
  // IMAGE_EXTENSIONS holds every format's own extensions: an image extension is replaced, another kept.
  if (IMAGE_EXTENSIONS.has(given)) clean = clean.slice(0, dot);
  const suffix = `.${EXTENSIONS[ext].includes(given) ? given : ext}`;
  const stem =
    [...clean]
      .slice(0, NAME_MAX - suffix.length)
      .join('')
      .trim() || 'picture';
  return stem + suffix;
}

/** The name Download uses: the cleaned upload name, or "picture.<ext>" for pictures stored before names were. */
export function downloadName(row: { originalName: string; originalFile: string }): string {
  return row.originalName || `picture.${extOf(row.originalFile)}`;
}

// RFC 5987 attr-char: what may stay unescaped in `filename*`; encodeURIComponent leaves ' ( ) * too.
const escapeAttrChars = (text: string) =>
  encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A Content-Disposition header (RFC 6266) naming the file: `filename*` in UTF-8 for every browser of
 * this decade, and a plain ASCII `filename` (accents dropped, anything else "_") for the rest.
 */
export function contentDisposition(name: string, disposition: 'inline' | 'attachment'): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${escapeAttrChars(name)}`;
}
