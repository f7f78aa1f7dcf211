import { generateKeyPairSync, hash, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => hash('sha256', bytes, 'buffer');

/**
 * A passkey authenticator in Node, as a browser's platform authenticator answers (ES256, "none" attestation,
 * user present and verified): what the server's WebAuthn checks are tested against without a browser.
 */
export function createSoftwareAuthenticator(origin: string) {
  const rpIdHash = sha256(new URL(origin).hostname);
  const credentials = new Map<string, { privateKey: KeyObject; userHandle: string; counter: number }>();

  const authData = (flags: number, counter: number, attested?: Buffer) => {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([rpIdHash, Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  };

  return {
    /** The answer to registration options (navigator.credentials.create). */
    create(options: { challenge: string; user: { id: string } }) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cose = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      );
      const id = randomBytes(16);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(id.length);
      const attested = Buffer.concat([Buffer.alloc(16), length, id, Buffer.from(cose)]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, string> | Uint8Array>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, string>()],
          ['authData', authData(0x45, 0, attested)],
        ]),
      );
      credentials.set(b64(id), { privateKey, userHandle: options.user.id, counter: 0 });
      const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin });
      return {
        id: b64(id),
        rawId: b64(id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64(clientDataJSON),
          attestationObject: b64(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },

    /** The answer to sign-in options (navigator.credentials.get), with a given credential or the first one. */
    get(options: { challenge: string }, credentialId = [...credentials.keys()][0]!) {
      const credential = credentials.get(credentialId)!;
      credential.counter += 1;
      const data = authData(0x05, credential.counter);
      const clientDataJSON = JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin });
      const signature = sign('sha256', Buffer.concat([data, sha256(clientDataJSON)]), credential.privateKey);
      return {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64(clientDataJSON),
          authenticatorData: b64(data),
          signature: b64(signature),
          userHandle: credential.userHandle,
        },
        clientExtensionResults: {},
      };
    },
  };
}
