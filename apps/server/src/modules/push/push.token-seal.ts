import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A Mastodon app's access token, kept for its pushes (issue 45): Mastodon's push payload carries the token the app
 * subscribed with (`access_token`), so the app knows which of its accounts a push is for. The database keeps only
 * tokens' SHA-256 elsewhere; this one is sealed (AES-256-GCM under a key derived from JWT_SECRET, as the two-factor
 * secrets are), so a copy of the table alone does not give it away. Without a secret (a test app), a key of this
 * process seals it, and a push after a restart goes without the token.
 */
export function createTokenSeal(secret: string | undefined) {
  const key = Buffer.from(
    hkdfSync('sha256', secret ?? randomBytes(32), Buffer.alloc(0), 'share-arts push app token', 32),
  );
  return {
    seal(token: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    },
    /** The token, or undefined when it cannot be opened (sealed under another secret). */
    open(sealed: string): string | undefined {
      try {
        const bytes = Buffer.from(sealed, 'base64url');
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
        decipher.setAuthTag(bytes.subarray(12, 28));
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}

export type TokenSeal = ReturnType<typeof createTokenSeal>;
