import { describe, expect, it } from 'vitest';
import { safeNextPath, signInPath } from './sign-in-first';

describe('safeNextPath', () => {
  it('keeps a path on this site, with its query and fragment', () => {
    expect(safeNextPath('/posts/abc')).toBe('/posts/abc');
    expect(safeNextPath('/tags/fox?sort=top#grid')).toBe('/tags/fox?sort=top#grid');
    expect(safeNextPath(new URLSearchParams(signInPath('/mira?view=grid').split('?')[1]).get('next'))).toBe(
      '/mira?view=grid',
    );
  });

  it.each([
    ['another site', 'https://evil.example/'],
    ['a protocol-relative address', '//evil.example/steal'],
    ['a backslash address', '/\\evil.example'],
    ['a tab-split one', '/\t/evil.example'],
    // Paths whose dot segments resolve to `//evil.example/phish` (issue 38, item 11).
    ['a dot segment before //', '/.//evil.example/phish'],
    ['a parent segment before //', '/..//evil.example/phish'],
    ['an encoded dot segment before //', '/%2e//evil.example/phish'],
    ['a dot segment before a backslash', '/./\\evil.example/phish'],
    ['a script', 'javascript:alert(1)'],
    ['a relative path', 'posts/abc'],
    ['nothing', ''],
    ['no parameter', null],
  ])('refuses %s', (_label, next) => {
    expect(safeNextPath(next)).toBeUndefined();
  });
});
