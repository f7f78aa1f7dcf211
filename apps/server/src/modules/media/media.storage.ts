import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MediaVariant } from '../../db/schema.js';

/** Where a logged failure goes; Fastify's logger fits. */
export interface MediaLog {
  warn(details: object, message: string): void;
}

/** Public URL of a file in the media folder (served by the static-files plugin with immutable caching). */
export const mediaUrl = (file: string) => `/media/${file}`;

export const originalFileName = (id: string, ext: string) => `${id}-original.${ext}`;

export const variantFileName = (id: string, variant: Pick<MediaVariant, 'width' | 'format'>) =>
  `${id}-${variant.width}.${variant.format === 'jpeg' ? 'jpg' : variant.format}`;

/** Every file name of a media row: the original and its variants. */
export const filesOf = (row: { originalFile: string; variants: MediaVariant[] }) => [
  row.originalFile,
  ...row.variants.map((variant) => variant.file),
];

export function createMediaStorage(mediaDir: string, log: MediaLog) {
  const pathOf = (file: string) => {
    // Names are made by the server, but a name from the database never leaves the media folder.
    if (path.basename(file) !== file || file.startsWith('.')) throw new Error(`bad media file name: ${file}`);
    return path.join(mediaDir, file);
  };

  async function remove(files: string[]): Promise<void> {
    await Promise.all(
      files.map(async (file) => {
        try {
          await rm(pathOf(file), { force: true });
        } catch (err) {
          log.warn({ err, file }, 'could not delete a media file');
        }
      }),
    );
  }

  return {
    /** Writes new files (never overwriting one); if any write fails, the ones written are removed. */
    async write(files: { name: string; data: Buffer }[]): Promise<void> {
      await mkdir(mediaDir, { recursive: true });
      const results = await Promise.allSettled(
        files.map((file) => writeFile(pathOf(file.name), file.data, { flag: 'wx' })),
      );
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) {
        // A partly written file goes too; a name that already existed (EEXIST) was never ours.
        const ours = files.filter((_, i) => {
          const result = results[i]!;
          return result.status === 'fulfilled' || (result.reason as NodeJS.ErrnoException).code !== 'EEXIST';
        });
        await remove(ours.map((file) => file.name));
        throw failed.reason;
      }
    },

    /** Removes files; failures are logged, never thrown (the row is what counts). */
    remove,
  };
}

export type MediaStorage = ReturnType<typeof createMediaStorage>;
