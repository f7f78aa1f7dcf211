import { describe, expect, it } from 'vitest';
import { tokenSubject } from './protocol';
import { sharedText } from './shared-items';

describe('what the installed app is shared', () => {
  it('makes the title, text and link the post’s words, each once', () => {
    expect(sharedText({ title: 'Study', text: 'Ink on paper', url: 'https://x.test/a' })).toBe(
      'Study\nInk on paper\nhttps://x.test/a',
    );
    // Apps often put the link in the text as well.
    expect(sharedText({ title: '', text: 'Look https://x.test/a', url: 'https://x.test/a' })).toBe(
      'Look https://x.test/a',
    );
    expect(sharedText({ title: ' ', text: '', url: '' })).toBe('');
  });
});

describe('the account a cache belongs to', () => {
  const token = (payload: unknown) =>
    `e30.${btoa(JSON.stringify(payload)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.sig`;

  it('is the token’s subject', () => {
    expect(tokenSubject(`Bearer ${token({ sub: '0b9c7c1e-1f2a-4c3d-9e8f-000000000001' })}`)).toBe(
      '0b9c7c1e-1f2a-4c3d-9e8f-000000000001',
    );
  });

  it('is nobody for a missing, malformed or odd token', () => {
    expect(tokenSubject(null)).toBeUndefined();
    expect(tokenSubject('Bearer not-a-jwt')).toBeUndefined();
    expect(tokenSubject(`Bearer ${token({ sub: 42 })}`)).toBeUndefined();
    expect(tokenSubject(`Bearer ${token({ sub: '../../etc' })}`)).toBeUndefined();
  });
});
