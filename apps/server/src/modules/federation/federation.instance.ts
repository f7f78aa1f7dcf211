import { exportJwk, importJwk, type Context, type generateCryptoKeyPair } from '@fedify/fedify';
import { Application, Endpoints, type CryptographicKey, type Multikey } from '@fedify/vocab';
import { APP_NAME } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { kvGet, kvSetOnce } from './federation.sql.js';

/**
 * The instance actor (issue 39, safety across servers): the server itself, as an `Application`, whose key signs the
 * documents the inboxes fetch (Fedify's shared-inbox key dispatcher: a remote actor, its key, a Move's target), so a
 * server in Mastodon's secure mode (AUTHORIZED_FETCH, where every GET must be signed) answers them. Mastodon has the
 * same actor at `/actor`; ours is `/ap/users/actor`, an identifier no account can have (accounts are uuids).
 */
export const INSTANCE_ACTOR = 'actor';

/** Where its key pairs are kept: `federation_kv`, without expiry (actor_keys belongs to accounts). */
const KEYS_KEY = JSON.stringify(['share-arts', 'instance-actor', 'keys']);

type Jwk = Parameters<typeof importJwk>[0];
/** Fedify's key pair type (Web Crypto's, whichever of Node's or the DOM's types the build uses). */
type KeyPair = Awaited<ReturnType<typeof generateCryptoKeyPair>>;

/** A new RSA key pair of 2,048 bits (as the accounts' keys: ten times faster to sign with than 4,096). */
async function generateRsa(): Promise<KeyPair> {
  return (await globalThis.crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as unknown as KeyPair;
}

/**
 * The instance actor's RSA key pair, made the first time it is needed and kept in the database: the first process
 * to write it wins (insert if absent, then read back), so every process signs with the one key its actor shows.
 */
export function createInstanceKeys(db: Db) {
  let pairs: Promise<KeyPair[]> | undefined;
  async function load(): Promise<KeyPair[]> {
    let stored = (await kvGet(db, KEYS_KEY))?.value as { publicJwk: Jwk; privateJwk: Jwk } | undefined;
    if (!stored) {
      const pair = await generateRsa();
      const json = JSON.stringify({
        publicJwk: await exportJwk(pair.publicKey),
        privateJwk: await exportJwk(pair.privateKey),
      });
      stored = (await kvSetOnce(db, KEYS_KEY, json)) as { publicJwk: Jwk; privateJwk: Jwk };
    }
    return [
      {
        publicKey: await importJwk(stored.publicJwk, 'public'),
        privateKey: await importJwk(stored.privateJwk, 'private'),
      },
    ];
  }
  return {
    of(): Promise<KeyPair[]> {
      if (!pairs) {
        pairs = load();
        // A failed read is not kept: the next request tries again.
        pairs.catch(() => (pairs = undefined));
      }
      return pairs;
    },
  };
}

/** The instance actor as served: an Application named by the server's host, with its key; it follows no one. */
export function toInstanceActor(
  ctx: Context<unknown>,
  keys: { cryptographicKey: CryptographicKey; multikey: Multikey }[],
): Application {
  const host = new URL(ctx.origin).host;
  return new Application({
    id: ctx.getActorUri(INSTANCE_ACTOR),
    preferredUsername: host,
    name: APP_NAME,
    summary: `The server ${host} itself: it signs what this server fetches.`,
    url: new URL('/', ctx.origin),
    inbox: ctx.getInboxUri(INSTANCE_ACTOR),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((key) => key.multikey),
    manuallyApprovesFollowers: true,
    discoverable: false,
    indexable: false,
  });
}
