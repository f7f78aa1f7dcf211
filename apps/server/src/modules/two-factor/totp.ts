import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const ISSUER = 'Share Arts';

const totpOf = (base32: string, label = '') =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });

/** A new secret (160 bits, as RFC 4226 recommends) in base32, its otpauth:// URI and that URI's QR code. */
export async function newTotpSecret(username: string): Promise<{ secret: string; uri: string; qrCode: string }> {
  const secret = new Secret({ size: 20 }).base32;
  const uri = totpOf(secret, username).toString();
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * The time-step a 6-digit code is right for, within one step either side of `now` (a phone's clock a little
 * off, a code typed as it changes); undefined when it is right for none.
 */
export function totpStep(base32: string, code: string, now: number): number | undefined {
  const delta = totpOf(base32).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

/**
 * Secrets are kept encrypted (AES-256-GCM) with a key derived from the JWT secret, so that a copy of the
 * database alone does not give anyone's codes. Changing JWT_SECRET turns every authenticator off in effect:
 * those accounts sign in with a recovery code and set it up again.
 */
export function createSecretBox(jwtSecret: string) {
  const key = Buffer.from(hkdfSync('sha256', jwtSecret, 'share-arts', 'two-factor totp secret', 32));
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), sealed]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    /** undefined when the key changed or the text was altered. */
    open(text: string): string | undefined {
      const [version, iv, tag, sealed] = text.split('.');
      if (version !== 'v1' || !iv || !tag || sealed === undefined) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;

/** Recovery codes are 10 random base32 characters (50 bits), shown as xxxxx-xxxxx. */
const CODE_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
export function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((byte) => CODE_ALPHABET[byte % 32]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** A code as typed, without spaces and dashes, lower-case. */
export const cleanCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/** Random values with 50 bits or more: SHA-256 is enough (no password to stretch). */
export const sha256 = (text: string) => hash('sha256', text, 'base64url');

/** A single-use ticket or challenge: 256 random bits. */
export const randomToken = () => randomBytes(32).toString('base64url');
