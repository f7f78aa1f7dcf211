import { createECDH, randomBytes } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * Takes an exclusive lock on the data folder: two servers writing one embedded database silently
 * lose writes. On Linux the lock is a socket bound in the kernel's abstract namespace under the
 * folder's device and inode: the kernel holds it for exactly the life of the process, so it cannot go
 * stale however long the server is paused (SIGSTOP, a debugger, a frozen VM), and it is free the
 * moment the process dies, even by SIGKILL. (Abstract names are per network namespace: two containers
 * that share the folder through a volume do not see each other's lock.) Elsewhere, a lock file whose
 * holder must refresh it every second: a server paused for longer than five seconds loses it.
 * A server still shutting down gets a few seconds to let go.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const taken = () =>
    new Error(
      `Another Share Arts server is using the data folder ${dataDir}. ` +
        'Stop that server first, or start this one with another DATA_DIR.',
    );
  if (process.platform !== 'linux') return lockWithFile(dataDir, taken);
  const { dev, ino } = await stat(dataDir, { bigint: true });
  const name = `\0share-arts-data-dir:${dev}:${ino}`;
  for (let attempt = 0; ; attempt += 1) {
    const server = createServer((socket) => socket.end());
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(name, resolve);
      });
      // The lock must not keep a process alive that has nothing else to do.
      server.unref();
      return () => new Promise<void>((resolve) => server.close(() => resolve()));
    } catch (error) {
      if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
      if (attempt >= LOCK_RETRIES) throw taken();
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  }
}

const LOCK_RETRIES = 12;
const LOCK_RETRY_MS = 250;

async function lockWithFile(dataDir: string, taken: () => Error): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: path.join(dataDir, 'server.lock'),
      stale: 5000,
      update: 1000,
      retries: { retries: 8, factor: 1.3, minTimeout: 500, maxTimeout: 1500 },
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') throw taken();
    throw error;
  }
}

/** The JWT secret kept under the data folder, created on first start when JWT_SECRET is not set. */
export async function loadOrCreateJwtSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    const secret = (await readFile(file, 'utf8')).trim();
    if (secret.length >= 32) return secret;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(48).toString('base64url');
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * The Web Push VAPID key pair (issue 44) kept under the data folder (`vapid-keys.json`), made on first start when
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set: P-256, base64url, as web-push's generateVAPIDKeys makes them.
 * Kept like the JWT secret: a new pair would make every device's subscription useless.
 */
export async function loadOrCreateVapidKeys(dataDir: string): Promise<{ publicKey: string; privateKey: string }> {
  const file = path.join(dataDir, 'vapid-keys.json');
  try {
    const kept = JSON.parse(await readFile(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof kept.publicKey === 'string' && typeof kept.privateKey === 'string') {
      return { publicKey: kept.publicKey, privateKey: kept.privateKey };
    }
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
  }
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const keys = {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    // A private key with leading zero bytes comes back shorter: padded to its 32 bytes.
    privateKey: Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()])
      .subarray(-32)
      .toString('base64url'),
  };
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
  return keys;
}
