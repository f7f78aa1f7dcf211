import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService } from './tokens.js';

const SECRET = 'a-secret-that-is-long-enough-for-hs256-0123456789';

afterEach(() => {
  vi.useRealTimers();
});

describe('token verification', () => {
  it('refuses a remembered token once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T12:00:00Z'));
    const tokens = createTokenService(SECRET, '60s');
    const token = await tokens.sign({ userId: 'u1', username: 'ana', sessionId: 's1' });
    expect(await tokens.verify(token)).toMatchObject({ userId: 'u1', username: 'ana' });
    vi.setSystemTime(new Date('2026-11-22T12:00:59Z'));
    expect(await tokens.verify(token)).toMatchObject({ userId: 'u1' });
    vi.setSystemTime(new Date('2026-11-22T12:01:01Z'));
    expect(await tokens.verify(token)).toBeNull();
    expect(await tokens.verify(token)).toBeNull();
  });

  it('never accepts a token changed after a valid one was remembered', async () => {
    const tokens = createTokenService(SECRET, '1h');
    const token = await tokens.sign({ userId: 'u1', username: 'ana', sessionId: 's1' });
    expect(await tokens.verify(token)).not.toBeNull();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ sub: 'u2', username: 'theo', exp: 9_999_999_999 })).toString(
      'base64url',
    );
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toBeNull();
    expect(await tokens.verify(`${header}.${payload}.${signature.slice(0, -2)}xx`)).toBeNull();
    const other = createTokenService('another-secret-that-is-long-enough-0123456789', '1h');
    expect(await other.verify(token)).toBeNull();
  });

  it('accepts only the canonical spelling of a token', async () => {
    const tokens = createTokenService(SECRET, '1h');
    const token = await tokens.sign({ userId: 'u1', username: 'ana', sessionId: 's1' });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    // A 32-byte signature is 43 characters: the last one carries 4 bits and 2 unused ones.
    const last = signature.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sameBits = alphabet[(alphabet.indexOf(last) & ~3) | ((alphabet.indexOf(last) + 1) & 3)]!;
    const respellings = [
      `${token}=`,
      `${token}==`,
      `${header}=.${payload}.${signature}`,
      `${header}.${payload}=.${signature}`,
      `${header}.${payload}.${signature.slice(0, -1)}${sameBits}`,
      ` ${token}`,
      `${token}.`,
    ];
    const standardAlphabet = signature.replaceAll('-', '+').replaceAll('_', '/');
    if (standardAlphabet !== signature) respellings.push(`${header}.${payload}.${standardAlphabet}`);
    for (const respelled of respellings) {
      expect(Buffer.from(respelled.split('.')[2] ?? '', 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
      expect(await tokens.verify(respelled), respelled).toBeNull();
    }
    expect(await tokens.verify(token)).toMatchObject({ userId: 'u1' });
  });
});
