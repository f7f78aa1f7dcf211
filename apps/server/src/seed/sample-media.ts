import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { fileURLToPath } from 'node:url';
import type { MediaPurpose } from '@share-arts/contract';
import type { MediaVariant } from '../db/schema.js';
import {
  inspectImage,
  originalFileName,
  processImage,
  variantFileName,
  type MediaStorage,
  type NewMediaRow,
} from '../modules/media/index.js';

/**
 * The sample pictures after the upload pipeline (checks, variants, placeholder), kept between starts.
 * Processing ~90 pictures takes about a minute on two cores, so `npm run build` does it once
 * (`prepare-sample-media`); the first start then only copies files and writes rows. Without a build
 * (tests, `npm run dev`) the first seed fills the folder itself.
 */
export const SAMPLE_MEDIA_DIR = fileURLToPath(new URL('../../dist/sample-media', import.meta.url));

// Bump when the drawings or the pipeline's output change, so that an old folder is filled again.
const CACHE_VERSION = 2;

export interface SampleSource {
  key: string;
  purpose: MediaPurpose;
  read(): Promise<Buffer>;
}

export interface PreparedPicture {
  purpose: MediaPurpose;
  originalFile: string;
  originalMime: string;
  originalBytes: number;
  width: number;
  height: number;
  placeholder: string;
  variants: MediaVariant[];
  /** What Download saves it as: the sample's key and its format's extension. */
  originalName: string;
  pixelated: boolean;
  animated: boolean;
}

interface Manifest {
  version: number;
  pictures: Record<string, PreparedPicture>;
}

async function readManifest(dir: string): Promise<Manifest> {
  try {
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
    if (manifest.version === CACHE_VERSION) return manifest;
  } catch {
    // No folder yet, or a damaged manifest: fill it again.
  }
  return { version: CACHE_VERSION, pictures: {} };
}

/** Written under a temporary name and renamed: another process copying the file never sees half of it. */
async function writeWhole(file: string, data: Buffer | string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, file);
}

async function prepareOne(source: SampleSource, dir: string): Promise<PreparedPicture> {
  const data = await source.read();
  const inspected = await inspectImage(data);
  const processed = await processImage(data, source.purpose, inspected);
  const originalFile = originalFileName(source.key, processed.original.ext);
  await writeWhole(path.join(dir, originalFile), processed.original.data);
  const variants: MediaVariant[] = [];
  for (const { data: bytes, ...variant } of processed.variants) {
    const file = variantFileName(source.key, variant);
    await writeWhole(path.join(dir, file), bytes);
    variants.push({ ...variant, file, bytes: bytes.length });
  }
  return {
    purpose: source.purpose,
    originalFile,
    originalMime: inspected.format.mime,
    originalBytes: processed.original.data.length,
    originalName: `${source.key}.${processed.original.ext}`,
    width: processed.width,
    height: processed.height,
    placeholder: processed.placeholder,
    variants,
    pixelated: processed.pixelated,
    animated: processed.animated,
  };
}

/** Processes the sources the folder does not hold yet; answers every source's processed picture. */
export async function prepareSampleMedia(
  sources: SampleSource[],
  dir = SAMPLE_MEDIA_DIR,
): Promise<Map<string, PreparedPicture>> {
  const manifest = await readManifest(dir);
  const missing = sources.filter((source) => !manifest.pictures[source.key]);
  if (missing.length > 0) {
    await mkdir(dir, { recursive: true });
    // Pictures use the CPU: more at once than the cores only queue.
    const limit = pLimit(availableParallelism());
    await Promise.all(
      missing.map((source) =>
        limit(async () => {
          manifest.pictures[source.key] = await prepareOne(source, dir);
        }),
      ),
    );
    await writeWhole(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  }
  return new Map(sources.map((source) => [source.key, manifest.pictures[source.key]!]));
}

/**
 * Copies a prepared picture into the media folder, or writes it to the picture storage (MEDIA_STORE=s3),
 * under a new id: the row to insert for it.
 */
export async function copySamplePicture(
  picture: PreparedPicture,
  ownerId: string,
  alt: string,
  target: string | Pick<MediaStorage, 'write'>,
  dir = SAMPLE_MEDIA_DIR,
): Promise<NewMediaRow & { id: string; variants: MediaVariant[] }> {
  const id = randomUUID();
  const originalFile = originalFileName(id, path.extname(picture.originalFile).slice(1));
  const variants = picture.variants.map((variant) => ({ ...variant, file: variantFileName(id, variant) }));
  const copies = [
    { from: picture.originalFile, to: originalFile },
    ...picture.variants.map((variant, i) => ({ from: variant.file, to: variants[i]!.file })),
  ];
  if (typeof target === 'string') {
    await Promise.all(copies.map(({ from, to }) => copyFile(path.join(dir, from), path.join(target, to))));
  } else {
    await target.write(
      await Promise.all(copies.map(async ({ from, to }) => ({ name: to, data: await readFile(path.join(dir, from)) }))),
    );
  }
  const { purpose, originalMime, originalBytes, originalName, width, height, placeholder, pixelated, animated } =
    picture;
  return {
    ...{ id, ownerId, purpose, originalFile, originalMime, originalBytes, originalName, width, height },
    ...{ placeholder, alt, variants, pixelated, animated },
  };
}
