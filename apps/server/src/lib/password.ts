import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import pLimit from 'p-limit';

const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
/** Hashes made from the NFC form of the password; hashes of the older `scrypt` scheme were made from it raw. */
const SCHEME = 'scrypt-nfc';
const RAW_SCHEME = 'scrypt';

/**
 * scrypt runs on libuv's pool of 4 threads, which also reads files (media, the web app), compresses and
 * resolves names: 50 concurrent logins held all four and a media fetch waited seconds. At most two
 * hashes run at once; the rest wait here, leaving the pool's other threads to everything else (and
 * bounding scrypt's memory to two times 128 * N * r bytes).
 */
const hashing = pLimit(2);

function scryptAsync(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return hashing(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
      }),
  );
}

const options = (cost: number): ScryptOptions => ({
  N: cost,
  r: BLOCK_SIZE,
  p: PARALLELISM,
  // scrypt needs 128 * N * r bytes; leave headroom above that.
  maxmem: 256 * cost * BLOCK_SIZE,
});

/**
 * The form a password is hashed in: NFC, so "é" typed as one code point or as e + U+0301 (an NFD
 * keyboard) is the same password.
 */
export const normalizePassword = (password: string): string => password.normalize('NFC');

/** Hashes with scrypt (memory-hard); the result carries its own parameters: `scrypt-nfc$N$r$p$salt$key`. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(normalizePassword(password), salt, options(cost));
  return [SCHEME, cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * Whether `password` matches `stored`. A hash of the older scheme was made from the text as typed, in
 * whichever form that keyboard sent it: the password is tried as typed, in NFC and in NFD, and
 * `rehash` says the stored hash should be replaced by one of the current scheme (made from NFC), so
 * the account then signs in from either kind of keyboard.
 */
export async function verifyPassword(password: string, stored: string): Promise<{ ok: boolean; rehash: boolean }> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if ((scheme !== SCHEME && scheme !== RAW_SCHEME) || !salt || !key) return { ok: false, rehash: false };
  const expected = Buffer.from(key, 'base64');
  const matches = async (candidate: string) => {
    const actual = await scryptAsync(candidate, Buffer.from(salt, 'base64'), {
      ...options(Number(n)),
      r: Number(r),
      p: Number(p),
    });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  };
  if (scheme === SCHEME) return { ok: await matches(normalizePassword(password)), rehash: false };
  for (const candidate of new Set([password, password.normalize('NFC'), password.normalize('NFD')])) {
    if (await matches(candidate)) return { ok: true, rehash: true };
  }
  return { ok: false, rehash: false };
}
