import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { IMPORT_ERRORS, IMPORT_LIMITS } from '@share-arts/contract';

/** An archive refused, or a file in it that cannot be read: `message` is a sentence for the artist. */
export class ArchiveRefused extends Error {}

const MB = 1024 * 1024;
/** A Unix mode's file type bits, and a symbolic link's. */
const TYPE_BITS = 0o170000;
const SYMLINK = 0o120000;

/** What the archive keeps of one file: enough to read it, nothing of its name's extra fields. */
export interface ArchiveFile {
  name: string;
  bytes: number;
  entry: yauzl.Entry;
}

export interface Archive {
  /** Every file, by its path in the archive (folders left out). */
  files: Map<string, ArchiveFile>;
  /** The file's bytes; refused beyond `max` (its size is checked before a byte is read, and while it is read). */
  read(name: string, max: number): Promise<Buffer>;
  /** The file's lines, one at a time (a Share Arts export writes one item per line); a line beyond `max` is refused. */
  lines(name: string, max: number): AsyncGenerator<string>;
  close(): void;
}

const openZip = (file: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: false },
      (err, zip) => (err || !zip ? reject(new ArchiveRefused(IMPORT_ERRORS.notZip)) : resolve(zip)),
    ),
  );

/** The next entry of a lazily read zip, or undefined at its end; yauzl's refusals (a path that climbs out) rethrown as ours. */
function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const done = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => (done(), resolve(entry));
    const onEnd = () => (done(), resolve(undefined));
    const onError = (err: Error) => {
      done();
      reject(new ArchiveRefused(refusalOf(err)));
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

/** yauzl's own refusals of the central directory, in the artist's words. */
function refusalOf(err: Error): string {
  if (/absolute path|relative path|invalid characters/i.test(err.message)) return climbing('(a file)');
  return `The archive is damaged and cannot be read (${err.message}). Download it again from your old service.`;
}

const climbing = (name: string) =>
  `The archive holds a path that leads out of it (${name.slice(0, 200)}): it was not made by the service it seems to ` +
  'come from, and nothing was imported from it.';

/** Refuses the file's entry when reading it could be unsafe: see openArchive. */
function checkEntry(entry: yauzl.Entry): void {
  const name = entry.fileName;
  const parts = name.split('/');
  if (name.startsWith('/') || /^[a-z]:/i.test(name) || parts.includes('..') || name.includes('\0')) {
    throw new ArchiveRefused(climbing(name));
  }
  if (((entry.externalFileAttributes >>> 16) & TYPE_BITS) === SYMLINK) {
    throw new ArchiveRefused(
      `The archive holds a symbolic link (${name.slice(0, 200)}), which no service's export has: nothing was imported from it.`,
    );
  }
  if (entry.isEncrypted()) {
    throw new ArchiveRefused('The archive is encrypted: export it again without a password.');
  }
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw new ArchiveRefused(
      `The archive uses a compression Share Arts does not read (${name.slice(0, 200)}): zip it again with ordinary (deflate) compression.`,
    );
  }
  if (entry.uncompressedSize > MB && entry.uncompressedSize > entry.compressedSize * IMPORT_LIMITS.maxRatio) {
    throw new ArchiveRefused(
      `The archive holds a file that would grow ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))} times ` +
        `its size when unpacked (${name.slice(0, 200)}): it looks like a zip bomb, and nothing was imported from it.`,
    );
  }
}

/**
 * Opens an archive and checks all of it before anything is read from it, from its central directory alone: at
 * most IMPORT_LIMITS.maxEntries files and maxUncompressedBytes once unpacked, no file growing more than maxRatio
 * times (a zip bomb), no path that climbs out of it (absolute, `..`, a drive letter), no symbolic link, no
 * encryption, no two files of one name (which of them would be meant?). Nothing is ever written out: files are read
 * into memory, one at a time, up to the size the caller allows, and yauzl checks while it inflates that a file is
 * no longer than it says.
 */
export async function openArchive(file: string): Promise<Archive> {
  const zip = await openZip(file);
  try {
    if (zip.entryCount > IMPORT_LIMITS.maxEntries) {
      throw new ArchiveRefused(
        `The archive holds ${zip.entryCount} files, more than the ${IMPORT_LIMITS.maxEntries} an import reads: export a smaller part.`,
      );
    }
    const files = new Map<string, ArchiveFile>();
    let total = 0;
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      checkEntry(entry);
      if (entry.fileName.endsWith('/')) continue;
      if (files.has(entry.fileName)) {
        throw new ArchiveRefused(
          `The archive holds two files named ${entry.fileName.slice(0, 200)}: it was changed after it was made, and nothing was imported from it.`,
        );
      }
      total += entry.uncompressedSize;
      if (total > IMPORT_LIMITS.maxUncompressedBytes) {
        throw new ArchiveRefused('The archive would be larger than 16 GB unpacked: export a smaller part.');
      }
      files.set(entry.fileName, { name: entry.fileName, bytes: entry.uncompressedSize, entry });
    }
    return archiveOf(zip, files);
  } catch (error) {
    zip.close();
    throw error;
  }
}

function archiveOf(zip: yauzl.ZipFile, files: Map<string, ArchiveFile>): Archive {
  const stream = (name: string) =>
    new Promise<Readable>((resolve, reject) => {
      const found = files.get(name);
      if (!found) return reject(new ArchiveRefused(`The archive has no file ${name.slice(0, 200)}.`));
      zip.openReadStream(found.entry, (err, readable) =>
        err || !readable ? reject(new ArchiveRefused(refusalOf(err ?? new Error('unreadable')))) : resolve(readable),
      );
    });
  const unreadable = (name: string, err: unknown) =>
    new ArchiveRefused(
      `${name.slice(0, 200)} in the archive cannot be read (${(err as Error).message}): download the archive again.`,
    );
  return {
    files,
    async read(name, max) {
      const found = files.get(name);
      if (found && found.bytes > max) {
        throw new ArchiveRefused(`${name.slice(0, 200)} is larger than ${Math.round(max / MB)} MB.`);
      }
      const readable = await stream(name);
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of readable) {
          size += (chunk as Buffer).length;
          if (size > max) throw new ArchiveRefused(`${name.slice(0, 200)} is larger than ${Math.round(max / MB)} MB.`);
          chunks.push(chunk as Buffer);
        }
      } catch (error) {
        readable.destroy();
        throw error instanceof ArchiveRefused ? error : unreadable(name, error);
      }
      return Buffer.concat(chunks);
    },
    async *lines(name, max) {
      const readable = await stream(name);
      const reader = createInterface({ input: readable, crlfDelay: Infinity });
      let pending = 0;
      // A line is only known to be too long once it ends: the bytes read since the last line are counted.
      readable.on('data', (chunk: Buffer) => {
        pending += chunk.length;
        if (pending > max) readable.destroy(new ArchiveRefused(`A line of ${name.slice(0, 200)} is too long to read.`));
      });
      try {
        for await (const line of reader) {
          pending = 0;
          yield line;
        }
      } catch (error) {
        throw error instanceof ArchiveRefused ? error : unreadable(name, error);
      } finally {
        reader.close();
        readable.destroy();
      }
    },
    close: () => zip.close(),
  };
}
