import { describe, expect, it } from 'vitest';
import { httpUrl, withWebScheme } from './safe-url';

describe('withWebScheme', () => {
  it('adds https:// to an address typed without a scheme', () => {
    expect(withWebScheme('nova.example.com/portfolio')).toBe('https://nova.example.com/portfolio');
    expect(withWebScheme('  www.example.com ')).toBe('https://www.example.com');
    expect(withWebScheme('example.com:8080/shop')).toBe('https://example.com:8080/shop');
    expect(withWebScheme('//cdn.example.com/a')).toBe('https://cdn.example.com/a');
  });

  it('keeps an address that has its scheme', () => {
    expect(withWebScheme('http://example.com')).toBe('http://example.com');
    expect(withWebScheme('HTTPS://Example.com/x')).toBe('HTTPS://Example.com/x');
  });

  it('never turns another scheme into a web address', () => {
    for (const link of ['javascript:alert(1)', 'mailto:nova@example.com', 'data:text/html,hi', 'ftp://example.com']) {
      expect(withWebScheme(link)).toBe(link);
      expect(httpUrl(withWebScheme(link))).toBeUndefined();
    }
  });

  it('leaves an empty value empty', () => {
    expect(withWebScheme('   ')).toBe('');
  });
});
