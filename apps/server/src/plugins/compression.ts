import { constants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import { HttpError } from '../lib/http-error.js';

/** The request encodings bodies may arrive in; a multipart upload takes none of them (see media.routes). */
export const REQUEST_ENCODINGS = ['gzip', 'deflate', 'br'] as const;

/**
 * Answers of 1 KB and more are compressed for clients that accept it (every browser does): a page of
 * 20 posts is about 36 KB of JSON, 5.4 KB in brotli at quality 3, compressed in about 0.1 ms (quality
 * 4 saves 2 % more bytes for 60 % more time). Answers up to 256 KB are compressed in one synchronous
 * call, cheaper here than a stream through the thread pool. The built web app is compressed at build time and sent as it is; pictures are not
 * compressible and are left alone. Answers that carry a token turn it off (`compress: false`): a secret
 * compressed beside text the client chose is what BREACH reads.
 *
 * Request bodies in gzip, deflate or br are decompressed before the body parser reads them, so the
 * 1 MB body limit counts decompressed bytes (a 1 MB gzip of 1 GB is refused with 413 in a few
 * milliseconds). A route whose parser reads the raw socket (multipart) must turn this off and refuse
 * encoded bodies itself: the decompressor and the parser would both read the socket, and the request hangs.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    syncThreshold: 256 * 1024,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 3 } },
    zlibOptions: { level: 3 },
    requestEncodings: [...REQUEST_ENCODINGS, 'identity'],
    onUnsupportedRequestEncoding: (encoding) =>
      new HttpError(
        415,
        `Unsupported Content-Encoding "${encoding.slice(0, 40)}": send the body uncompressed, or as ` +
          `${REQUEST_ENCODINGS.slice(0, -1).join(', ')} or ${REQUEST_ENCODINGS.at(-1)}.`,
      ),
    // Its fields are copied onto the decompressor's own error, so a plain object (an Error's message
    // would not be copied).
    onInvalidRequestPayload: (encoding) => ({
      name: 'InvalidRequestPayload',
      statusCode: 400,
      message: `The body could not be decompressed as ${encoding}: it is damaged or not ${encoding}.`,
    }),
  });
}
