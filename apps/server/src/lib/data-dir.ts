import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * Takes an exclusive lock on the data folder: two servers writing one embedded database silently
 * lose writes. A crashed server's lock goes stale within seconds, and the next start waits for that.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: path.join(dataDir, 'server.lock'),
      stale: 5000,
      update: 1000,
      retries: { retries: 8, factor: 1.3, minTimeout: 500, maxTimeout: 1500 },
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') {
      throw new Error(
        `Another Share Arts server is using the data folder ${dataDir}. ` +
          'Stop that server first, or start this one with another DATA_DIR.',
      );
    }
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
