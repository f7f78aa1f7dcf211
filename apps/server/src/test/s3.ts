import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { MediaStoreConfig } from '../modules/media/index.js';

/** The part of s3rver (which ships no types) the tests use. */
interface S3rver {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
}
// Loaded with require, typed here: a declaration file would have to be in every project that compiles this one.
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: {
  port?: number;
  address?: string;
  directory: string;
  silent?: boolean;
}) => S3rver;

/**
 * A real S3-protocol server (s3rver, which keeps objects in a folder) on a free port, for tests of
 * MEDIA_STORE=s3. `stop` closes it and every open connection (the storage is gone); `start` brings it back
 * on the same port with the same files.
 */
export interface TestS3Server {
  endpoint: string;
  port: number;
  /** A store config for a new, empty bucket on this server. */
  bucket(name?: string): Promise<Extract<MediaStoreConfig, { kind: 's3' }>>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const ACCESS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3Server(options: { timeoutMs?: number } = {}): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'share-arts-s3-'));
  let port = 0;
  let server: S3rver | undefined;
  const buckets: string[] = [];

  async function start(): Promise<void> {
    // Buckets are folders: those made before a stop are there again after a start.
    server = new S3rver({ port, address: '127.0.0.1', directory, silent: true });
    port = (await server.run()).port;
  }
  async function stop(): Promise<void> {
    const running = server;
    server = undefined;
    if (!running) return;
    const closed = running.close();
    // Keep-alive connections of the client would hold the server open (and keep answering).
    running.httpServer.closeAllConnections();
    await closed;
  }
  await start();
  const endpoint = `http://127.0.0.1:${port}`;

  return {
    endpoint,
    port,
    async bucket(name = `test-${randomBytes(6).toString('hex')}`) {
      const response = await fetch(`${endpoint}/${name}`, { method: 'PUT' });
      if (!response.ok) throw new Error(`could not make bucket ${name}: ${response.status} ${await response.text()}`);
      buckets.push(name);
      return {
        kind: 's3',
        bucket: name,
        region: 'us-east-1',
        endpoint,
        forcePathStyle: true,
        credentials: ACCESS,
        timeoutMs: options.timeoutMs ?? 5000,
      };
    },
    stop,
    start,
    async close() {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
