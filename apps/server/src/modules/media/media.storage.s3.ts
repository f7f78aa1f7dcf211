import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { HttpError } from '../../lib/http-error.js';
import { extOf, TYPE_OF_EXT } from './media.download.js';
import { MEDIA_FILE, type MediaLog, type MediaStorage, type ReadResult } from './media.storage.js';

/** MEDIA_STORE=s3's settings (config.ts reads them from S3_*). */
export interface S3Options {
  bucket: string;
  region: string;
  /** S3_ENDPOINT: MinIO, R2, Garage… (unset: AWS). */
  endpoint?: string | undefined;
  /** `bucket.host/key` (false) or `host/bucket/key` (true, what most S3-compatible servers want). */
  forcePathStyle: boolean;
  /** Both or neither: unset, the AWS SDK's own chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** A storage call that has not answered in this time fails (a 503), so no request hangs on it. */
  timeoutMs: number;
}

export const STORAGE_UNREACHABLE =
  'The server cannot reach its picture storage right now. Nothing was saved: please try again in a minute.';
const PROBE_EVERY_MS = 2000;
// Deleting many files at once: a few at a time, so a sweep does not open hundreds of connections.
const DELETE_CONCURRENCY = 8;
const YEAR_SECONDS = 31_536_000;

const statusOf = (err: unknown) =>
  (err as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;

/**
 * Pictures in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Garage…). Every call has a deadline;
 * a failed or late one is a 503 that says the storage is unreachable, and is logged once when the storage
 * starts failing and once when it answers again.
 */
export function createS3Storage(options: S3Options, log: MediaLog, now: () => number = Date.now): MediaStorage {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // One retry of a dropped connection, within the deadline below; more would only make a 503 slower.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: options.timeoutMs, socketTimeout: options.timeoutMs },
    // Checksums only where S3 requires them: many S3-compatible servers refuse or mangle the newer ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;

  let failing: string | undefined;
  let probedAt = -Infinity;
  let probing: Promise<void> | undefined;

  function answered(): void {
    if (!failing) return;
    log.info({ bucket: Bucket }, 'the picture storage answers again');
    failing = undefined;
  }

  /** Records a failed call: the 503 to send. */
  function unreachable(err: unknown): HttpError {
    const why = err instanceof Error ? err.message || err.name : String(err);
    if (!failing) {
      log.error({ err, bucket: Bucket }, 'cannot reach the picture storage: uploads answer 503 until it answers');
    }
    failing = why;
    return new HttpError(503, STORAGE_UNREACHABLE, { 'retry-after': '30' });
  }

  /** Runs a call with a deadline for its answer (a body being streamed afterwards is not cut). */
  async function withDeadline<T>(call: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error(`the picture storage did not answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    try {
      return await call(controller.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  async function removeOne(file: string): Promise<void> {
    try {
      await withDeadline((abortSignal) => client.send(new DeleteObjectCommand({ Bucket, Key: file }), { abortSignal }));
    } catch (err) {
      log.warn({ err, file }, 'could not delete a media file (the sweeper retries)');
    }
  }

  async function remove(files: string[]): Promise<void> {
    for (let i = 0; i < files.length; i += DELETE_CONCURRENCY) {
      await Promise.all(files.slice(i, i + DELETE_CONCURRENCY).map(removeOne));
    }
  }

  async function probe(): Promise<void> {
    try {
      await withDeadline((abortSignal) => client.send(new HeadBucketCommand({ Bucket }), { abortSignal }));
      answered();
    } catch (err) {
      unreachable(err);
    }
  }

  async function health() {
    if (now() - probedAt >= PROBE_EVERY_MS) {
      probedAt = now();
      probing ??= probe().finally(() => (probing = undefined));
    }
    if (probing) await probing;
    return failing ? { storage: 'failing' as const, problem: STORAGE_UNREACHABLE } : { storage: 'ok' as const };
  }

  return {
    kind: 's3',

    async write(files) {
      const results = await Promise.allSettled(
        files.map((file) =>
          withDeadline((abortSignal) =>
            client.send(
              new PutObjectCommand({
                Bucket,
                Key: file.name,
                Body: file.data,
                ContentLength: file.data.length,
                ContentType: TYPE_OF_EXT[extOf(file.name)] ?? 'application/octet-stream',
                // What a CDN or the bucket itself sends when it serves the file (MEDIA_PUBLIC_URL).
                CacheControl: `public, max-age=${YEAR_SECONDS}, immutable`,
              }),
              { abortSignal },
            ),
          ),
        ),
      );
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) {
        // Every file of the upload goes (a late write may yet land: the sweeper removes it without a row).
        await remove(files.map((file) => file.name));
        throw unreachable(failed.reason);
      }
      answered();
    },

    remove,

    async read(name, { range, ifNoneMatch } = {}): Promise<ReadResult> {
      let answer;
      try {
        answer = await withDeadline((abortSignal) =>
          client.send(
            new GetObjectCommand({
              Bucket,
              Key: name,
              ...(range ? { Range: range } : {}),
              ...(ifNoneMatch ? { IfNoneMatch: ifNoneMatch } : {}),
            }),
            { abortSignal },
          ),
        );
      } catch (err) {
        const status = statusOf(err);
        if (status === 404 || (err instanceof S3ServiceException && err.name === 'NoSuchKey')) {
          return { status: 'missing' };
        }
        if (status === 304) return { status: 'not-modified', ...(ifNoneMatch ? { etag: ifNoneMatch } : {}) };
        if (status === 416) return { status: 'bad-range' };
        throw unreachable(err);
      }
      answered();
      const length = answer.ContentLength ?? 0;
      const size = Number(/\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1] ?? length);
      return {
        status: 'ok',
        file: {
          body: answer.Body as Readable,
          length,
          size,
          contentType: TYPE_OF_EXT[extOf(name)] ?? answer.ContentType ?? 'application/octet-stream',
          ...(answer.ETag ? { etag: answer.ETag } : {}),
          ...(answer.LastModified ? { lastModified: answer.LastModified } : {}),
          ...(answer.ContentRange ? { contentRange: answer.ContentRange } : {}),
        },
      };
    },

    async *list() {
      let ContinuationToken: string | undefined;
      do {
        let page;
        try {
          page = await withDeadline((abortSignal) =>
            client.send(
              new ListObjectsV2Command({ Bucket, MaxKeys: 1000, ...(ContinuationToken ? { ContinuationToken } : {}) }),
              { abortSignal },
            ),
          );
        } catch (err) {
          throw unreachable(err);
        }
        // Only files the server names; anything else in the bucket is left alone.
        const batch = (page.Contents ?? [])
          .filter((object) => object.Key && MEDIA_FILE.test(object.Key))
          .map((object) => ({ name: object.Key!, modifiedMs: object.LastModified?.getTime() ?? now() }));
        if (batch.length > 0) yield batch;
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    health,

    async check() {
      try {
        await withDeadline((abortSignal) => client.send(new HeadBucketCommand({ Bucket }), { abortSignal }));
      } catch (err) {
        throw unreachable(err);
      }
      answered();
    },
  };
}
