import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import type { Db } from '../../db/client.js';
import { insertActorKey, selectActorKeys, type KeyAlgorithm } from './federation.sql.js';

/** Fedify's key pair type (Web Crypto's, whichever of Node's or the DOM's types the build uses). */
type KeyPair = Awaited<ReturnType<typeof generateCryptoKeyPair>>;
type Jwk = Parameters<typeof importJwk>[0];

/** The algorithms every actor has a key of, in the order its key pairs are answered (RSA first: `publicKey`). */
const ALGORITHMS: readonly KeyAlgorithm[] = ['RSASSA-PKCS1-v1_5', 'Ed25519'];

/** How many accounts' imported keys a process keeps (a key never changes, so none is ever stale). */
const KEPT = 2_000;

/**
 * A new key pair: RSA of 2,048 bits (Fedify's helper makes 4,096, whose signatures are about ten times slower,
 * issue 39), or Ed25519.
 */
async function generate(algorithm: KeyAlgorithm): Promise<KeyPair> {
  if (algorithm === 'Ed25519') return generateCryptoKeyPair('Ed25519');
  return (await globalThis.crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as unknown as KeyPair;
}

/**
 * Each account's actor key pairs (`actor_keys`), made the first time they are needed: the missing ones are
 * generated and inserted on conflict do nothing, then the rows are read again, so two first requests at
 * once (in one process or two) both answer the one pair that was kept.
 */
export function createActorKeys(db: Db) {
  const kept = new Map<string, Promise<KeyPair[]>>();

  async function load(userId: string): Promise<KeyPair[]> {
    let rows = await selectActorKeys(db, userId);
    const missing = ALGORITHMS.filter((algorithm) => !rows.some((row) => row.algorithm === algorithm));
    if (missing.length > 0) {
      for (const algorithm of missing) {
        const pair = await generate(algorithm);
        await insertActorKey(db, userId, algorithm, await exportJwk(pair.publicKey), await exportJwk(pair.privateKey));
      }
      rows = await selectActorKeys(db, userId);
    }
    return Promise.all(
      rows.map(async (row) => ({
        publicKey: await importJwk(row.public_jwk as Jwk, 'public'),
        privateKey: await importJwk(row.private_jwk as Jwk, 'private'),
      })),
    );
  }

  return {
    /** The account's key pairs, RSA first then Ed25519 (the account is known to exist). */
    of(userId: string): Promise<KeyPair[]> {
      let pairs = kept.get(userId);
      if (!pairs) {
        pairs = load(userId);
        // A failed read is not kept: the next request tries again.
        pairs.catch(() => kept.delete(userId));
        if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
        kept.set(userId, pairs);
      }
      return pairs;
    },
  };
}

export type ActorKeys = ReturnType<typeof createActorKeys>;
